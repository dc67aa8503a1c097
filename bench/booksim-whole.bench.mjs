// Whole-process speed against BookSim 2.0 (issue 30, "Speed"; first asked in issue 15): the same
// BookSim configuration file run by `booksim file.cfg` and by `meshwork traffic --booksim-config
// file.cfg`, each as a fresh process, CPU seconds (user + system, to the millisecond from bash's
// `times`), interleaved (Node's floor, BookSim, Meshwork, Node's floor, ...) so that load from other
// processes hurts all alike; medians.
// The two cases: torus 8×8, 1-flit packets, 2 VCs at 0.15 (BookSim's torus88 example;
// target ≥ 3× not counting Node's start-up) and torus 32×32, 4-flit packets, 4 VCs at 0.10 (≥ 10×).
// "Not counting Node's start-up": Meshwork's CPU less the median CPU of `node empty.mjs` (Node
// starting and loading one empty ES module, as it loads the CLI's ES modules; `node -e 0` is printed
// beside it) measured in the same interleaved run. Both ratios are printed, and so is the CPU
// Meshwork's process would need for 3× (10×).
// The two tools draw different random streams, so their runs end after a few different cycle counts
// (BookSim's procedure decides when): the ratios are per simulated cycle.
// BookSim's binary: $BOOKSIM or `booksim` on the PATH; without it only Meshwork's side is measured.
// RUNS=n sets the runs per side (default 7 on 8×8 and 3 on 32×32, where BookSim's run takes about a
// minute); CASES=8x8 (or 32x32) runs only the cases whose name contains it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processCpuMs } from './timing.mjs';
import { bookSimBinary, bookSimCycles, torusConfig } from './booksim.mjs';
import { tempDir } from './temp.mjs';

const MAIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const ALL_CASES = [
  { name: 'torus 8x8, P1, 2 VCs, uniform 0.15', k: 8, vcs: 2, packetSize: 1, rate: 0.15, target: 3, runs: 7 },
  { name: 'torus 32x32, P4, 4 VCs, uniform 0.10', k: 32, vcs: 4, packetSize: 4, rate: 0.1, target: 10, runs: 3 },
];
const CASES = ALL_CASES.filter((c) => !process.env.CASES || c.name.includes(process.env.CASES));

const median = (xs) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];
const list = (xs) => xs.map((x) => x.toFixed(3)).join(' / ');
/** Meshwork's cycles: the last column of its one table row. */
const meshworkCycles = (out) => Number(out.trim().split('\n').find((l) => /^\s*0\.\d/.test(l)).trim().split(/\s+/).at(-1));

export default async function () {
  const bin = bookSimBinary();
  const dir = tempDir('bs-whole');
  const empty = join(dir, 'empty.mjs');
  writeFileSync(empty, '');
  const rows = [];
  for (const c of CASES) {
    const runs = Number(process.env.RUNS ?? c.runs);
    const cfg = join(dir, `torus${c.k}.cfg`);
    writeFileSync(cfg, torusConfig(c));
    const side = { emptyEsm: [], nodeE0: [], booksim: [], meshwork: [] };
    let oursCycles = 0;
    let theirCycles = 0;
    for (let i = 0; i < runs; i++) {
      side.emptyEsm.push(processCpuMs(process.execPath, [empty]).cpu);
      side.nodeE0.push(processCpuMs(process.execPath, ['-e', '0']).cpu);
      if (bin) {
        const b = processCpuMs(bin, [cfg]);
        side.booksim.push(b.cpu);
        theirCycles = bookSimCycles(b.stdout);
      }
      const m = processCpuMs(process.execPath, [MAIN, 'traffic', '--booksim-config', cfg]);
      side.meshwork.push(m.cpu);
      oursCycles = meshworkCycles(m.stdout);
    }
    const floor = median(side.emptyEsm);
    const m = median(side.meshwork);
    const note = (xs) => `median of ${runs}: ${list(xs)}`;
    rows.push({ name: `${c.name}: node empty.mjs (Node's start-up)`, value: floor.toFixed(3), unit: 's cpu', target: '', note: note(side.emptyEsm) });
    rows.push({ name: `${c.name}: node -e 0`, value: median(side.nodeE0).toFixed(3), unit: 's cpu', target: '', note: note(side.nodeE0) });
    rows.push({ name: `${c.name}: Meshwork whole process`, value: m.toFixed(3), unit: 's cpu', target: '', note: `${note(side.meshwork)}; ${oursCycles} cycles` });
    if (!bin) {
      rows.push({ name: `${c.name}: BookSim / Meshwork`, value: 'n/a', unit: '', target: `>= ${c.target}`, note: 'set BOOKSIM=/path/to/booksim (built -O3)' });
      continue;
    }
    const b = median(side.booksim);
    // Per simulated cycle: CPU seconds per cycle of each side, then BookSim's over Meshwork's.
    const ratio = (mine) => b / theirCycles / (mine / oursCycles);
    const budget = (b / theirCycles) * oursCycles / c.target;
    rows.push({ name: `${c.name}: BookSim whole process`, value: b.toFixed(3), unit: 's cpu', target: '', note: `${note(side.booksim)}; ${theirCycles} cycles` });
    rows.push({ name: `${c.name}: BookSim / Meshwork, whole processes`, value: ratio(m).toFixed(2), unit: 'x', target: '', note: 'per simulated cycle' });
    rows.push({ name: `${c.name}: BookSim / Meshwork, not counting Node's start-up`, value: ratio(m - floor).toFixed(2), unit: 'x', target: `>= ${c.target}`, note: `Meshwork's CPU minus node empty.mjs (${floor.toFixed(3)} s), same run` });
    rows.push({ name: `${c.name}: Meshwork CPU the target allows`, value: (budget + floor).toFixed(3), unit: 's cpu', target: '', note: `${budget.toFixed(3)} s over Node's start-up for ${c.target}x` });
  }
  return rows;
}
