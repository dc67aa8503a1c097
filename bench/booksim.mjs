// BookSim 2.0 side of the benches (bench/run.mjs loads only *.bench.mjs, so this file is not a bench):
// the torus configuration files both tools run, and where BookSim's binary is.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

/** A BookSim torus file: dimension order, uniform traffic, rate in flits/node/cycle, BookSim's latency procedure. */
export function torusConfig({ k, vcs, packetSize, rate }) {
  return `topology = torus;
k = ${k};
n = 2;
routing_function = dim_order;
num_vcs = ${vcs};
vc_buf_size = 8;
packet_size = ${packetSize};
traffic = uniform;
injection_rate_uses_flits = 1;
injection_rate = ${rate};
seed = 1;
sim_type = latency;
`;
}

/** BookSim's binary: $BOOKSIM, else `booksim` on the PATH, else null (the benches then run Meshwork alone). */
export function bookSimBinary() {
  if (process.env.BOOKSIM) return existsSync(process.env.BOOKSIM) ? process.env.BOOKSIM : null;
  const found = spawnSync('sh', ['-c', 'command -v booksim'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() ? found.stdout.trim() : null;
}

/** Cycles of a BookSim log ("Time taken is N cycles"); BookSim exits 255 after a good run, so judge by this. */
export function bookSimCycles(log) {
  const m = /Time taken is (\d+) cycles/.exec(log);
  if (!m) throw new Error(`BookSim printed no "Time taken" line:\n${log.slice(-400)}`);
  return Number(m[1]);
}
