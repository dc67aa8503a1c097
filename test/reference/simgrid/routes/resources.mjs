// Turns the output of routes.cpp (SimGrid's link names per host pair) into routes/NAME.txt: each
// link written as the Meshwork resource it names. Usage: ./routes PLATFORM.xml HOSTS | node resources.mjs HOSTS
//   NAME_U_UP / NAME_U_DOWN -> cN, N = 2U / 2U + 1 (split-duplex link U, U its creation number)
//   NAME_U                  -> sU (a SHARED link: one capacity both ways)
//   CLUSTER_link_K_limiter  -> nV, the limiter of node V: host K (K < HOSTS) or the switch or router
//                              created i-th, K = 2·HOSTS − 1 − i, which Meshwork numbers HOSTS + i
// Routes over split-duplex links only (no s or n) are written as bare channel numbers.
import { createInterface } from 'node:readline';

const n = Number(process.argv[2]);
const lines = [];
for await (const line of createInterface({ input: process.stdin })) {
  const [a, b, links] = line.split(' ');
  const out = links.split(',').map((l) => {
    let m = /_link_(\d+)_limiter$/.exec(l);
    if (m) return `n${Number(m[1]) < n ? Number(m[1]) : n + (2 * n - 1 - Number(m[1]))}`;
    m = /_(\d+)_(UP|DOWN)$/.exec(l);
    if (m) return `c${2 * Number(m[1]) + (m[2] === 'DOWN' ? 1 : 0)}`;
    return `s${/_(\d+)$/.exec(l)[1]}`;
  });
  lines.push([a, b, out]);
}
const plain = lines.every(([, , out]) => out.every((x) => x.startsWith('c')));
for (const [a, b, out] of lines) console.log(`${a} ${b} ${(plain ? out.map((x) => x.slice(1)) : out).join('.')}`);
