import type { Command } from 'commander';
import { EXPORT_FORMATS, exportTopology } from '../../topology/index.js';
import { familiesHelp } from '../families-help.js';
import { InputError } from '../../util/errors.js';
import { loadTopology } from '../../node/load-topology.js';
import { planOutputs, print, writeOutputs } from '../io.js';

export function register(program: Command): void {
  program
    .command('export')
    .description('write a topology as JSON (Meshwork format), GraphML (Gephi, yEd) or DOT (Graphviz)')
    .argument('<spec>', 'topology spec (torus:8x8), file:graph.json, or a YAML/JSON spec file')
    .option('--format <format>', `one of ${EXPORT_FORMATS.join(', ')}`, 'json')
    .option('--out <file>', 'write to this file (atomically) instead of stdout')
    .option('--mapping <order>', 'rank order: identity, reverse, random:seed=N, snake, or a permutation file')
    .addHelpText('after', familiesHelp)
    .action((specText: string, opts: { format: string; out?: string; mapping?: string }) => {
      if (!(EXPORT_FORMATS as readonly string[]).includes(opts.format)) throw new InputError('format', opts.format, EXPORT_FORMATS.join(', '));
      const [out] = planOutputs({ out: opts.out });
      const text = exportTopology(loadTopology(specText, { mapping: opts.mapping }), opts.format);
      if (out) writeOutputs([[out, text]]);
      else print(text);
    });
}
