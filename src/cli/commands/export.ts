import type { Command } from 'commander';
import { EXPORT_FORMATS, exportTopology } from '../../topology/index.js';
import { familiesHelp } from '../families-help.js';
import { InputError } from '../../util/errors.js';
import { loadTopology } from '../../node/load-topology.js';
import { planOutputs, print, writeOutputs } from '../io.js';
import { topologyToAnynet } from '../../interop/anynet.js';
import { topologyToSimgrid } from '../../interop/simgrid.js';

const FORMATS = [...EXPORT_FORMATS, 'anynet', 'simgrid'];

export function register(program: Command): void {
  program
    .command('export')
    .description('write a topology as JSON (Meshwork format), GraphML (Gephi, yEd), DOT (Graphviz), a BookSim anynet file or a SimGrid platform')
    .argument('<spec>', 'topology spec (torus:8x8), file:graph.json, or a YAML/JSON spec file')
    .option('--format <format>', `one of ${FORMATS.join(', ')}`, 'json')
    .option('--out <file>', 'write to this file (atomically) instead of stdout')
    .option('--mapping <order>', 'rank order: identity, reverse, random:seed=N, snake, or a permutation file')
    .addHelpText('after', familiesHelp)
    .action((specText: string, opts: { format: string; out?: string; mapping?: string }) => {
      if (!FORMATS.includes(opts.format)) throw new InputError('format', opts.format, FORMATS.join(', '));
      const [out] = planOutputs({ out: opts.out });
      const topology = loadTopology(specText, { mapping: opts.mapping });
      const text = opts.format === 'anynet' ? topologyToAnynet(topology) : opts.format === 'simgrid' ? topologyToSimgrid(topology) : exportTopology(topology, opts.format);
      if (out) writeOutputs([[out, text]]);
      else print(text);
    });
}
