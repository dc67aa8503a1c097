/**
 * Deadlock detection: when no flit has moved for T cycles while flits are in the network, the run
 * stops with the cycle of waiting channels (input VCs whose heads wait on each other's buffers).
 */
import type { PacketNetwork } from './network.js';

export class DeadlockError extends Error {
  readonly cycle: number;
  /** The waiting VCs, each "channel c (u→v) vc k", in wait order; empty if no cycle was isolated. */
  readonly waitCycle: readonly string[];
  constructor(cycle: number, threshold: number, waitCycle: readonly string[]) {
    super(
      `deadlock: no flit moved for ${threshold} cycles at cycle ${cycle}; ` +
        (waitCycle.length > 0 ? `waiting cycle: ${waitCycle.join(' -> ')}` : 'no single waiting cycle isolated'),
    );
    this.name = 'DeadlockError';
    this.cycle = cycle;
    this.waitCycle = waitCycle;
  }
}

/** Finds one cycle in the wait-for graph of occupied input VCs (a depth-first search, run only on detection). */
export function findWaitCycle(net: PacketNetwork): string[] {
  const V = net.vcsPerPort();
  const C = net.numChannels;
  const n = net.ivcCount.length;
  const successors = (x: number): number[] => {
    if (net.ivcCount[x] === 0) return [];
    const out = net.ivcOut[x];
    if (out < 0 || out >= C) return [];
    if (net.ivcState[x] === 2) {
      const o = net.ivcOvc[x];
      return net.credits[o] <= 0 ? [o] : [];
    }
    const res: number[] = [];
    for (let v = 0; v < V; v++) {
      const y = out * V + v;
      if (net.ovcOwner[y] >= 0 || net.ivcCount[y] > 0) res.push(y);
    }
    return res;
  };
  const color = new Uint8Array(n);
  const parent = new Int32Array(n).fill(-1);
  for (let s = 0; s < n; s++) {
    if (color[s] !== 0 || net.ivcCount[s] === 0) continue;
    const stack: Array<[number, number[], number]> = [[s, successors(s), 0]];
    color[s] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top[2] >= top[1].length) {
        color[top[0]] = 2;
        stack.pop();
        continue;
      }
      const y = top[1][top[2]++];
      if (color[y] === 1) {
        const cyc: number[] = [y];
        for (let x = top[0]; x !== y && x >= 0; x = parent[x]) cyc.push(x);
        return cyc.reverse().map((id) => describe(net, id, V));
      }
      if (color[y] === 0) {
        color[y] = 1;
        parent[y] = top[0];
        stack.push([y, successors(y), 0]);
      }
    }
  }
  return [];
}

function describe(net: PacketNetwork, ivc: number, V: number): string {
  const c = Math.floor(ivc / V);
  const t = net.topology;
  if (c < t.numChannels) return `channel ${c} (${t.chSrc[c]}→${t.chDst[c]}) vc ${ivc % V}`;
  return `injection port ${c - t.numChannels} vc ${ivc % V}`;
}
