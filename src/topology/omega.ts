/**
 * Omega multistage network `omega:N` (Lawrie 1975): N terminals, n = log2 N stages of N/2 2×2
 * switches, a perfect shuffle (rotate the n-bit line number left by one) before every stage.
 *
 * Model: each terminal is ONE node that injects into the network's input line with its number and
 * receives from the output line with its number (the network "folded" onto its processors, as in
 * seed 004's Table 1, where the MIN is 512×10 switches serving 1,024 PEs). A message crosses exactly
 * n switches, so under the 'switches-traversed' convention every pair of distinct terminals is
 * n apart: log2 N, Table 1's value. Node ids: terminals 0..N−1, then stage s switch r at
 * N + s·N/2 + r (coords [r, s]). Classes: "inject" (terminal -> stage 0), "stage" (between stages),
 * "eject" (last stage -> terminal).
 */
import { InputError } from '../util/errors.js';
import { Spec } from '../util/spec.js';
import { checkSize, LinkAttributes, TopologyBuilder } from './builder.js';
import { NodeKind, Topology } from './graph.js';
import type { TopologyFamily } from './registry.js';
import { positionalInt } from './ring.js';

export function omega(n: number, link?: LinkAttributes, specText?: string): Topology {
  if (!Number.isInteger(n) || n < 2 || (n & (n - 1)) !== 0) throw new InputError('omega.n', n, 'a power of two >= 2');
  const stages = Math.log2(n);
  const half = n / 2;
  const nodes = n + stages * half;
  const channels = 2 * n + (stages - 1) * n;
  checkSize('omega.n', nodes, channels);
  const shuffle = (line: number): number => ((line << 1) | (line >>> (stages - 1))) & (n - 1);
  const b = new TopologyBuilder(2, { nodes, channels }, link);
  for (let t = 0; t < n; t++) b.addNode(NodeKind.Terminal, [t, -1]);
  const sw = (stage: number, row: number): number => n + stage * half + row;
  for (let s = 0; s < stages; s++) {
    for (let r = 0; r < half; r++) b.addNode(NodeKind.Switch, [r, s]);
  }
  for (let t = 0; t < n; t++) b.addChannel(t, sw(0, shuffle(t) >> 1), 'inject');
  for (let s = 0; s + 1 < stages; s++) {
    for (let line = 0; line < n; line++) b.addChannel(sw(s, line >> 1), sw(s + 1, shuffle(line) >> 1), 'stage');
  }
  for (let line = 0; line < n; line++) b.addChannel(sw(stages - 1, line >> 1), line, 'eject');
  return b.build({
    family: 'omega',
    spec: specText ?? `omega:${n}`,
    params: { n, stages, switchesPerStage: half, terminalModel: 'one node per terminal: input line t and output line t', bandwidth: b.defaultBandwidth, latency: b.defaultLatency },
    distanceConvention: 'switches-traversed',
    // Proof (docs/topology.md, checked by test/topology/omega.test.ts): the map "line w before
    // stage s -> w XOR rot^s(x)" sends switches to switches and links to links for any x, and after
    // n stages rot^n(x) = x, so terminal t -> t XOR x is an automorphism: all terminals are equivalent.
    symmetry: { reason: 'omega terminals are equivalent (XOR translation of line numbers)', classes: [{ rank: 0, count: n }] },
  });
}

export const omegaFamily: TopologyFamily = {
  name: 'omega',
  aliases: ['min'],
  usage: 'omega:N[,bw=25Gbps,lat=100ns]',
  description: 'omega MIN: N terminals, log2 N stages of N/2 2×2 switches, perfect-shuffle wiring',
  build(spec: Spec, link: LinkAttributes): Topology {
    return omega(positionalInt(spec, 'n', { min: 2 }), link, spec.text);
  },
  defaultRouting: 'destination-tag',
};
