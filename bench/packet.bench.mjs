// Packet-engine benchmarks (issue 5, "Performance"): BookSim's torus88 example side by side with
// BookSim 2.0 when its binary is found ($BOOKSIM or `booksim` on the PATH), and the 32×32 scale case.
// Throughput is simulated router-cycles per second (routers × cycles / wall seconds); each side
// runs 3 times alternately and keeps its fastest run, so load from other processes hurts both alike.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildTopology, simulateTraffic } from '../dist/index.js';
import { processCpu, timed } from './timing.mjs';
import { bookSimBinary, bookSimCycles, torusConfig } from './booksim.mjs';
import { tempDir } from './temp.mjs';

function ours() {
  const topology = buildTopology('torus:8x8');
  const { value: r, seconds, cpu } = timed(() => simulateTraffic({ topology, pattern: 'uniform', rates: [0.15], preset: 'booksim', config: { packetSize: 1, vcs: 2, seed: 1 } }));
  return { seconds, cpu, cycles: r.points[0].cycles, latency: r.points[0].packet_latency };
}

function booksim(bin) {
  const dir = tempDir('booksim');
  const cfg = join(dir, 'torus88.cfg');
  writeFileSync(cfg, torusConfig({ k: 8, vcs: 2, packetSize: 1, rate: 0.15 }));
  const t0 = performance.now();
  const { cpu, stdout } = processCpu(bin, [cfg]);
  const seconds = (performance.now() - t0) / 1000;
  const latency = Number(/Packet latency average = ([\d.]+)/.exec(stdout)?.[1]);
  return { seconds, cpu, cycles: bookSimCycles(stdout), latency };
}

export default async function () {
  const rows = [];
  const bin = bookSimBinary();
  let best = null;
  let bestB = null;
  for (let i = 0; i < 3; i++) {
    const a = ours();
    if (!best || a.seconds < best.seconds) best = a;
    if (bin) {
      const b = booksim(bin);
      if (!bestB || b.seconds < bestB.seconds) bestB = b;
    }
  }
  const rate = (64 * best.cycles) / best.seconds;
  rows.push({
    name: 'torus88 uniform 0.15 (BookSim example), router-cycles/s',
    value: (rate / 1e6).toFixed(2),
    unit: 'M/s',
    target: '>= BookSim',
    note: `${best.cycles} cycles in ${best.seconds.toFixed(3)} s (cpu ${best.cpu.toFixed(3)} s), packet latency ${best.latency.toFixed(2)}`,
  });
  if (bestB) {
    const rateB = (64 * bestB.cycles) / bestB.seconds;
    rows.push({ name: 'BookSim 2.0 same config, router-cycles/s', value: (rateB / 1e6).toFixed(2), unit: 'M/s', target: '', note: `${bestB.cycles} cycles in ${bestB.seconds.toFixed(3)} s (cpu ${bestB.cpu.toFixed(3)} s), packet latency ${bestB.latency}` });
    rows.push({ name: 'speed ratio Meshwork / BookSim', value: (rate / rateB).toFixed(2), unit: 'x', target: '>= 1.0', note: 'wall time incl. process start for BookSim' });
    if (Number.isFinite(bestB.cpu)) {
      const cpuRatio = (best.cycles / best.cpu) / (bestB.cycles / bestB.cpu);
      rows.push({ name: 'speed ratio Meshwork / BookSim, CPU time', value: cpuRatio.toFixed(2), unit: 'x', target: '>= 1.0', note: 'router-cycles per CPU second (BookSim via /usr/bin/time)' });
    }
  } else {
    rows.push({ name: 'speed ratio Meshwork / BookSim', value: 'n/a', unit: '', target: '>= 1.0', note: 'set BOOKSIM=/path/to/booksim (or put booksim on the PATH) to compare' });
  }
  const t32 = buildTopology('torus:32x32');
  const { value: r, seconds: wall, cpu } = timed(() => simulateTraffic({ topology: t32, pattern: 'uniform', rates: [0.05], preset: 'booksim', config: { packetSize: 4, vcs: 4 }, measurement: 'horizon', horizon: 10_000 }));
  const p = r.points[0];
  rows.push({
    name: 'torus 32x32, 4-flit packets, 4 VCs, uniform 0.05, 10,000 cycles',
    value: wall.toFixed(2),
    unit: 's',
    target: '< 15 s',
    note: `cpu ${cpu.toFixed(2)} s, ${p.delivered} packets, mean latency ${p.meanLatency.toFixed(1)}, ${((1024 * 10_000) / wall / 1e6).toFixed(2)} M router-cycles/s`,
  });
  return rows;
}
