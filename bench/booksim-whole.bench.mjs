// Whole-process speed against BookSim 2.0 (issue 15, "Speed"): the same BookSim configuration file
// run by `booksim file.cfg` and by `meshwork traffic --booksim-config file.cfg`, each as a fresh
// process, CPU seconds (user + system) from /usr/bin/time, so start-up counts as a user sees it.
// Tori 8×8, 16×16, 32×32; 4 VCs, 4-flit packets, uniform 0.05 flits/node/cycle, BookSim's latency
// procedure (warm-up, samples, drain) on both sides. Needs BOOKSIM=/path/to/booksim (built -O3).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

function cpuOf(cmd, args) {
  const out = spawnSync('/usr/bin/time', ['-f', 'MWCPU %U %S', cmd, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const m = /MWCPU ([\d.]+) ([\d.]+)/.exec(out.stderr ?? '');
  if (!m) throw new Error(`${cmd} failed: ${out.stderr}`);
  return { cpu: Number(m[1]) + Number(m[2]), stdout: out.stdout };
}

export default async function () {
  const bin = process.env.BOOKSIM;
  if (!bin || !existsSync('/usr/bin/time')) {
    return [{ name: 'whole-process ratio vs BookSim', value: 'n/a', unit: '', target: '>= 3x (8x8), >= 10x (32x32)', note: 'set BOOKSIM=/path/to/booksim; needs /usr/bin/time' }];
  }
  const dir = mkdtempSync(join(tmpdir(), 'mw-bs-whole-'));
  const rows = [];
  const startup = cpuOf(process.execPath, [MAIN, 'traffic', '--topology', 'torus:8x8', '--pattern', 'uniform', '--rates', '0.05', '--horizon', '1']);
  rows.push({ name: 'meshwork start-up (1-cycle traffic run)', value: startup.cpu.toFixed(2), unit: 's cpu', target: '', note: 'node alone is ~0.1 s; the rest is loading the command, the topology families and the packet engine' });
  for (const k of [8, 16, 32]) {
    const cfg = join(dir, `torus${k}.cfg`);
    writeFileSync(cfg, config(k));
    const b = cpuOf(bin, [cfg]);
    const m = cpuOf(process.execPath, [MAIN, 'traffic', '--booksim-config', cfg]);
    const cycles = /Time taken is (\d+) cycles/.exec(b.stdout)?.[1];
    rows.push({ name: `torus ${k}x${k} whole process, BookSim / Meshwork cpu`, value: (b.cpu / m.cpu).toFixed(2), unit: 'x', target: k === 8 ? '>= 3' : k === 32 ? '>= 10' : '', note: `BookSim ${b.cpu.toFixed(2)} s (${cycles} cycles), Meshwork ${m.cpu.toFixed(2)} s` });
  }
  return rows;
}
