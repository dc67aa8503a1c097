import type { Command } from 'commander';
import { buildTopology } from '../../topology/index.js';
import { print } from '../io.js';

export function register(program: Command): void {
  program
    .command('topo')
    .description('build a topology from a spec (e.g. torus:8x8x8) and print its shape')
    .argument('<spec>', 'topology spec, e.g. torus:8x8,bw=25Gbps,lat=100ns')
    .option('--json', 'machine-readable output')
    .action((specText: string, opts: { json?: boolean }) => {
      const t = buildTopology(specText);
      const summary = { spec: t.spec, family: t.family, nodes: t.numNodes, terminals: t.numEndpoints, channels: t.numChannels };
      print(opts.json ? JSON.stringify(summary, null, 2) : Object.entries(summary).map(([k, v]) => `${k}: ${v}`).join('\n'));
    });
}
