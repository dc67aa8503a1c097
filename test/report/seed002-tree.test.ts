/**
 * Seed 002's combining network as a topology (spec A2, D6: a binary tree of compute nodes): the
 * xor-swap run on it at flow level against its closed form, and the closed form against the
 * pipelined hwCollective cost the flow engine charges (the oracle the reproduction kept).
 */
import { describe, expect, it } from 'vitest';
import { combiningTree, onCombiningTree, treeDepth, treePackets, xorSwapCalls, xorSwapOnTree, xorSwapTreeStoreForward, xorSwapTreeTime } from '../../src/analysis/reproduce/seed002-tree.js';
import { buildSchedule, lowerSchedule, OpKind } from '../../src/index.js';

const tree = { levelLatency: 100e-9, bandwidth: 25e9 / 8, callOverhead: 1e-6 };

describe('seed 002: the combining tree', () => {
  it('is a heap-ordered binary tree with one link each way per parent and child, at the level parameters', () => {
    const t = combiningTree(7, tree);
    expect(t.numEndpoints).toBe(7);
    expect(t.numChannels).toBe(12);
    for (let k = 1; k < 7; k++) {
      const up = t.channelBetween(k, Math.floor((k - 1) / 2));
      expect(t.chLatency[up]).toBe(100e-9);
      expect(t.chBandwidth[up]).toBe(25e9 / 8);
    }
    expect([1, 2, 3, 4, 7, 8, 16, 31].map(treeDepth)).toEqual([0, 1, 1, 2, 2, 3, 4, 4]);
  });

  it('turns each XOR allreduce into packets up and down the tree', () => {
    const t = combiningTree(4, tree);
    const p = onCombiningTree(lowerSchedule(buildSchedule({ collective: 'alltoall', algorithm: 'xor-swap', topology: t, size: 1000 }), t), tree);
    // 1000 B = 256 + 256 + 256 + 232 (tree packets); node 1 has child 3 and parent 0: per call and
    // packet recv + reduce + send up, then recv + send down: 5 ops × 4 packets × 18 calls.
    expect(treePackets(1000, tree)).toEqual([256, 256, 256, 232]);
    const s1 = p.opStart[1];
    expect(p.opStart[2] - s1).toBe(5 * 4 * xorSwapCalls(4));
    expect(Array.from(p.opKind.subarray(s1, s1 + 3))).toEqual([OpKind.Recv, OpKind.Reduce, OpKind.Send]);
    // The call overhead waits before the first op of every call on every rank, nowhere else.
    expect(Array.from(p.opDelay!).filter((d) => d > 0).length).toBe(4 * xorSwapCalls(4));
  });

  it('runs the xor-swap in the closed form time (store and forward per packet and level, pipelined)', () => {
    // Oracle: 3·n(n−1)/2 calls × (overhead + 2·(depth·L + ((depth − 1)·first packet + element) / B)).
    for (const [n, bytes] of [[4, 8], [8, 8], [4, 4096], [8, 1000]] as const) {
      const sim = xorSwapOnTree(n, bytes, tree);
      expect(sim / xorSwapTreeStoreForward(n, bytes, tree)).toBeCloseTo(1, 12);
    }
    // n = 4 (depth 2), 8-byte elements by hand: 18 calls × (1 µs + 2·(2·100 ns + (1·8 B + 8 B) / 3.125 GB/s)).
    expect(xorSwapTreeStoreForward(4, 8, tree)).toBeCloseTo(18 * (1e-6 + 2 * (200e-9 + 16 / 3.125e9)), 15);
  });

  it('keeps the pipelined hwCollective form as the limit of one packet crossing the tree once', () => {
    // Store and forward exceeds the pipelined form by 2·(depth − 1) first-packet times + one element time per call.
    for (const [n, bytes] of [[4, 8], [16, 4096], [128, 64]] as const) {
      const extra = xorSwapCalls(n) * (2 * (treeDepth(n) - 1) * treePackets(bytes, tree)[0] + bytes) / tree.bandwidth;
      expect(xorSwapTreeStoreForward(n, bytes, tree) - xorSwapTreeTime(n, bytes, tree)).toBeCloseTo(extra, 15);
    }
  });
});
