// Whole-process speed against BookSim 2.0 (issue 30, "Speed"; first asked in issue 15): the same
// BookSim configuration file run by `booksim file.cfg` and by `meshwork traffic --booksim-config
// file.cfg`, each as a fresh process, CPU seconds (user + system) from /usr/bin/time, interleaved
// (BookSim, Meshwork, BookSim, ...) so that load from other processes hurts both alike; medians.
// The two cases: torus 8×8, 1-flit packets, 2 VCs at 0.15 (BookSim's torus88 example;
// target ≥ 3× not counting Node's start-up) and torus 32×32, 4-flit packets, 4 VCs at 0.10 (≥ 10×).
// The two tools draw different random streams, so their runs end after a few different cycle counts
// (BookSim's procedure decides when): the ratios are per simulated cycle.
// BookSim's binary: $BOOKSIM or `booksim` on the PATH; without it only Meshwork's side is measured.
// RUNS=n sets the runs per side (default 3; BookSim's 32×32 run takes about a minute); CASES=8x8
// (or 32x32) runs only the cases whose name contains it.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processCpu } from './timing.mjs';
import { bookSimBinary, bookSimCycles, torusConfig } from './booksim.mjs';

const MAIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const RUNS = Number(process.env.RUNS ?? 3);
const ALL_CASES = [
  { name: 'torus 8x8, P1, 2 VCs, uniform 0.15', k: 8, vcs: 2, packetSize: 1, rate: 0.15, target: 3 },
  { name: 'torus 32x32, P4, 4 VCs, uniform 0.10', k: 32, vcs: 4, packetSize: 4, rate: 0.1, target: 10 },
];
const CASES = ALL_CASES.filter((c) => !process.env.CASES || c.name.includes(process.env.CASES));

const median = (xs) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];
const list = (xs) => xs.map((x) => x.toFixed(2)).join(' / ');
/** Meshwork's cycles: the last column of its one table row. */
const meshworkCycles = (out) => Number(out.trim().split('\n').find((l) => /^\s*0\.\d/.test(l)).trim().split(/\s+/).at(-1));

export default async function () {
  if (!existsSync('/usr/bin/time')) return [{ name: 'whole-process ratio vs BookSim', value: 'n/a', unit: '', target: '', note: 'needs /usr/bin/time' }];
  const bin = bookSimBinary();
  const dir = mkdtempSync(join(tmpdir(), 'mw-bs-whole-'));
  const rows = [];
  // Start-up floors, measured in the same run: node alone, and Meshwork's 1-cycle traffic run.
  const node = [];
  const startup = [];
  for (let i = 0; i < RUNS; i++) {
    node.push(processCpu(process.execPath, ['-e', '1']).cpu);
    startup.push(processCpu(process.execPath, [MAIN, 'traffic', '--topology', 'torus:8x8', '--pattern', 'uniform', '--rates', '0.05', '--horizon', '1']).cpu);
  }
  const nodeCpu = median(node);
  const startupCpu = median(startup);
  rows.push({ name: 'node -e 1 (Node\'s start-up)', value: nodeCpu.toFixed(3), unit: 's cpu', target: '', note: `median of ${RUNS}: ${list(node)}` });
  rows.push({ name: 'meshwork start-up (1-cycle traffic run)', value: startupCpu.toFixed(3), unit: 's cpu', target: '', note: `median of ${RUNS}: ${list(startup)}` });
  for (const c of CASES) {
    const cfg = join(dir, `torus${c.k}.cfg`);
    writeFileSync(cfg, torusConfig(c));
    const ours = [];
    const theirs = [];
    let oursCycles = 0;
    let theirCycles = 0;
    for (let i = 0; i < RUNS; i++) {
      if (bin) {
        const b = processCpu(bin, [cfg]);
        theirs.push(b.cpu);
        theirCycles = bookSimCycles(b.stdout);
      }
      const m = processCpu(process.execPath, [MAIN, 'traffic', '--booksim-config', cfg]);
      ours.push(m.cpu);
      oursCycles = meshworkCycles(m.stdout);
    }
    const m = median(ours);
    rows.push({ name: `${c.name}: Meshwork whole process`, value: m.toFixed(2), unit: 's cpu', target: '', note: `median of ${RUNS}: ${list(ours)}; ${oursCycles} cycles` });
    if (!bin) {
      rows.push({ name: `${c.name}: BookSim / Meshwork`, value: 'n/a', unit: '', target: `>= ${c.target}`, note: 'set BOOKSIM=/path/to/booksim (built -O3)' });
      continue;
    }
    const b = median(theirs);
    // Per simulated cycle: CPU seconds per cycle of each side, then BookSim's over Meshwork's.
    const ratio = (mine) => b / theirCycles / (mine / oursCycles);
    rows.push({ name: `${c.name}: BookSim whole process`, value: b.toFixed(2), unit: 's cpu', target: '', note: `median of ${RUNS}: ${list(theirs)}; ${theirCycles} cycles` });
    rows.push({ name: `${c.name}: BookSim / Meshwork, whole processes`, value: ratio(m).toFixed(2), unit: 'x', target: '', note: 'per simulated cycle' });
    rows.push({ name: `${c.name}: BookSim / Meshwork, less Node's start-up`, value: ratio(m - nodeCpu).toFixed(2), unit: 'x', target: `>= ${c.target}`, note: `Meshwork's CPU minus node -e 1 (${nodeCpu.toFixed(3)} s)` });
    rows.push({ name: `${c.name}: BookSim / Meshwork, less Meshwork's start-up`, value: ratio(m - startupCpu).toFixed(2), unit: 'x', target: '', note: `Meshwork's CPU minus its 1-cycle run (${startupCpu.toFixed(3)} s): the simulation alone, JIT warm-up included` });
  }
  return rows;
}
