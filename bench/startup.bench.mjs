// CLI start-up (issue 17, "Start-up"): CPU seconds of fresh `meshwork` processes that do almost no
// work, against `node -e 1`, the floor of any Node process. The CLI is bundled at build time
// (scripts/bundle-cli.mjs); these figures are what that buys. Medians of 5 (docs/architecture.md).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { medianProcessCpu } from './timing.mjs';

const MAIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const RUNS = 5;

const CASES = [
  ['--version', ['--version'], '< 0.25'],
  ['topo torus:4x4', ['topo', 'torus:4x4'], '< 0.25'],
  ['run (torus:4x4 pairwise alltoall, 1 KiB)', ['run', '--topology', 'torus:4x4', '--collective', 'alltoall', '--algorithm', 'pairwise', '--size', '1KiB'], ''],
  ['traffic --horizon 1 (torus:4x4)', ['traffic', '--topology', 'torus:4x4', '--pattern', 'uniform', '--rates', '0.1', '--horizon', '1'], ''],
];

export default async function () {
  if (!existsSync('/usr/bin/time')) return [{ name: 'CLI start-up', value: 'n/a', unit: '', target: '', note: 'needs /usr/bin/time' }];
  const row = (name, m, target) => ({ name, value: m.cpu.toFixed(2), unit: 's cpu', target, note: `median of ${RUNS}: ${m.all.map((x) => x.toFixed(2)).join(' / ')}` });
  const rows = [row('node -e 1 (the floor of any Node process)', medianProcessCpu(process.execPath, ['-e', '1'], RUNS), '')];
  for (const [name, args, target] of CASES) rows.push(row(`meshwork ${name}`, medianProcessCpu(process.execPath, [MAIN, ...args], RUNS), target));
  return rows;
}
