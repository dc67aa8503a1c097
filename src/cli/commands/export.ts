import type { Command } from 'commander';
import { EXPORT_FORMATS, exportTopology } from '../../topology/index.js';
import { familiesHelp } from '../families-help.js';
import { InputError } from '../../util/errors.js';
import { parseIntValue } from '../../util/spec.js';
import { loadTopology } from '../../node/load-topology.js';
import { planOutputs, print, writeOutputs } from '../io.js';
import { topologyToAnynet } from '../../interop/anynet.js';
import { topologyToSimgrid } from '../../interop/simgrid.js';
import type { TorusTieBreak } from '../../routing/dimension-order.js';

const FORMATS = [...EXPORT_FORMATS, 'anynet', 'simgrid'];

export function register(program: Command): void {
  program
    .command('export')
    .description('write a topology as JSON (Meshwork format), GraphML (Gephi, yEd), DOT (Graphviz), a BookSim anynet file or a SimGrid platform')
    .argument('<spec>', 'topology spec (torus:8x8), file:graph.json, or a YAML/JSON spec file')
    .option('--format <format>', `one of ${FORMATS.join(', ')}`, 'json')
    .option('--out <file>', 'write to this file (atomically) instead of stdout')
    .option('--mapping <order>', 'rank order: identity, reverse, random:seed=N, snake, or a permutation file')
    .option('--simgrid-zone', 'with --format simgrid: an explicit <zone routing="Full"> (one route per ordered pair) even for a torus, fat tree or dragonfly')
    .option('--tie <mode>', 'with --format simgrid: the torus tie-break of the routes a zone lists: positive, negative, parity, random, simgrid (as --preset simgrid routes)')
    .option('--seed <n>', "with --tie random: the seed of the random side (default: the routing's, 0; the platform names the seed used)")
    .addHelpText('after', familiesHelp)
    .action((specText: string, opts: { format: string; out?: string; mapping?: string; simgridZone?: boolean; tie?: string; seed?: string }) => {
      if (!FORMATS.includes(opts.format)) throw new InputError('format', opts.format, FORMATS.join(', '));
      if ((opts.simgridZone || opts.tie !== undefined) && opts.format !== 'simgrid') throw new InputError('format', opts.format, 'simgrid with --simgrid-zone and --tie');
      // A platform file names hosts, not ranks: smpirun places ranks by its hostfile (meshwork run --mapping reads one).
      if (opts.mapping !== undefined && opts.format === 'simgrid') throw new InputError('mapping', opts.mapping, 'nothing with --format simgrid (ranks go on hosts by smpirun\'s hostfile, not the platform)');
      const ties = ['positive', 'negative', 'parity', 'random', 'simgrid'];
      if (opts.tie !== undefined && !ties.includes(opts.tie)) throw new InputError('tie', opts.tie, `${ties.join(', ')} (a zone lists one route per pair, so no split)`);
      if (opts.seed !== undefined && opts.tie !== 'random') throw new InputError('seed', opts.seed, 'only with --tie random (no other route listed makes a random choice)');
      const seed = opts.seed === undefined ? undefined : parseIntValue(opts.seed, 'seed', { min: 0, max: 2 ** 32 - 1 });
      const [out] = planOutputs({ out: opts.out });
      const topology = loadTopology(specText, { mapping: opts.mapping });
      const text = opts.format === 'anynet' ? topologyToAnynet(topology) : opts.format === 'simgrid' ? topologyToSimgrid(topology, { zone: opts.simgridZone, routing: opts.tie === undefined ? undefined : { tie: opts.tie as TorusTieBreak, seed } }) : exportTopology(topology, opts.format);
      if (out) writeOutputs([[out, text]]);
      else print(text);
    });
}
