// Whole-process speed against BookSim 2.0 (issue 15, "Speed"): the same BookSim configuration file
// run by `booksim file.cfg` and by `meshwork traffic --booksim-config file.cfg`, each as a fresh
// process, CPU seconds (user + system) from /usr/bin/time, so start-up counts as a user sees it.
// Tori 8×8, 16×16, 32×32; 4 VCs, 4-flit packets, uniform 0.05 flits/node/cycle, BookSim's latency
// procedure (warm-up, samples, drain) on both sides. Needs BOOKSIM=/path/to/booksim (built -O3).
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { medianProcessCpu } from './timing.mjs';

const MAIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

const config = (k) => `topology = torus;
k = ${k};
n = 2;
routing_function = dim_order;
num_vcs = 4;
vc_buf_size = 8;
packet_size = 4;
traffic = uniform;
injection_rate_uses_flits = 1;
injection_rate = 0.05;
seed = 1;
`;

/** Median CPU of `RUNS` fresh processes (the machine is shared: one run can be off by tens of percent). */
const RUNS = 3;
const medianCpu = (cmd, args) => medianProcessCpu(cmd, args, RUNS);

export default async function () {
  const bin = process.env.BOOKSIM;
  if (!bin || !existsSync('/usr/bin/time')) {
    return [{ name: 'whole-process ratio vs BookSim', value: 'n/a', unit: '', target: '>= 3x (8x8), >= 10x (32x32)', note: 'set BOOKSIM=/path/to/booksim; needs /usr/bin/time' }];
  }
  const dir = mkdtempSync(join(tmpdir(), 'mw-bs-whole-'));
  const rows = [];
  const bare = medianCpu(process.execPath, ['-e', '1']);
  rows.push({ name: 'node -e 1 (the floor of any Node process)', value: bare.cpu.toFixed(3), unit: 's cpu', target: '', note: `median of ${RUNS}: ${bare.all.map((x) => x.toFixed(2)).join(' / ')}` });
  const startup = medianCpu(process.execPath, [MAIN, 'traffic', '--topology', 'torus:8x8', '--pattern', 'uniform', '--rates', '0.05', '--horizon', '1']);
  rows.push({ name: 'meshwork start-up (1-cycle traffic run)', value: startup.cpu.toFixed(3), unit: 's cpu', target: '', note: `median of ${RUNS}: ${startup.all.map((x) => x.toFixed(2)).join(' / ')}; above node alone: loading the command, the topology families and the packet engine` });
  for (const k of [8, 16, 32]) {
    const cfg = join(dir, `torus${k}.cfg`);
    writeFileSync(cfg, config(k));
    const b = medianCpu(bin, [cfg]);
    const m = medianCpu(process.execPath, [MAIN, 'traffic', '--booksim-config', cfg]);
    const cycles = /Time taken is (\d+) cycles/.exec(b.stdout)?.[1];
    rows.push({ name: `torus ${k}x${k} whole process, BookSim / Meshwork cpu`, value: (b.cpu / m.cpu).toFixed(2), unit: 'x', target: k === 8 ? '>= 3' : k === 32 ? '>= 10' : '', note: `medians of ${RUNS}: BookSim ${b.cpu.toFixed(2)} s (${b.all.map((x) => x.toFixed(2)).join(' / ')}; ${cycles} cycles), Meshwork ${m.cpu.toFixed(2)} s (${m.all.map((x) => x.toFixed(2)).join(' / ')})` });
    if (k === 8) {
      // What the 8x8 target asks: Meshwork's whole run within a third of BookSim's CPU.
      rows.push({ name: 'torus 8x8: CPU budget for 3x (BookSim / 3) against node -e 1', value: (b.cpu / 3).toFixed(3), unit: 's cpu', target: '', note: `node alone: ${bare.cpu.toFixed(3)} s` });
    }
  }
  return rows;
}
