/**
 * Seed 002's global combining network as a topology of its own: a binary tree whose every node is a
 * compute node with a combining adapter (spec A2, D6: root, branch and leaf nodes, three links each),
 * numbered in heap order (node k's children are 2k+1 and 2k+2), with a latency and a bandwidth per
 * tree level and a software overhead per allreduce call. `onCombiningTree` rewrites every
 * hwCollective of a lowered program (the xor-swap's XOR allreduces) into the messages the tree
 * carries: contributions combined up level by level, the result sent back down, so the swap runs on
 * the tree's links in the flow engine instead of a closed-form cost.
 */
import { buildSchedule } from '../../collectives/index.js';
import { OpKind } from '../../collectives/types.js';
import { lowerSchedule } from '../../sim/program/from-schedule.js';
import { FlowProgramBuilder, type FlowProgram } from '../../sim/program/program.js';
import { simulate } from '../../sim/simulate.js';
import { TopologyBuilder } from '../../topology/builder.js';
import { NodeKind, type Topology } from '../../topology/graph.js';

/** The combining tree's parameters: per-level latency (s), bandwidth (bytes/s), per-call overhead (s). */
export interface CombiningTree {
  readonly levelLatency: number;
  readonly bandwidth: number;
  readonly callOverhead: number;
  /**
   * Bytes per tree packet: an adapter forwards (and combines) packet by packet, so a long element is
   * pipelined through the levels. Default 256 (Blue Gene/L's collective-network packet; the patent
   * names no size).
   */
  readonly packetBytes?: number;
}

export const DEFAULT_TREE_PACKET_BYTES = 256;

/** An element's tree packets: full packets, then the remainder. */
export function treePackets(bytes: number, tree: CombiningTree): number[] {
  const s = tree.packetBytes ?? DEFAULT_TREE_PACKET_BYTES;
  if (bytes <= s) return [bytes];
  const out = new Array<number>(Math.floor(bytes / s)).fill(s);
  if (bytes % s > 0) out.push(bytes % s);
  return out;
}

/** Levels below the root of an n-node heap-ordered binary tree. */
export function treeDepth(n: number): number {
  return Math.floor(Math.log2(n));
}

/** The n-node combining tree: one link per parent and child, with the level's latency and bandwidth. */
export function combiningTree(n: number, tree: CombiningTree): Topology {
  const b = new TopologyBuilder(1, { nodes: n, channels: 2 * (n - 1) });
  for (let k = 0; k < n; k++) b.addNode(NodeKind.Terminal, [treeDepth(k + 1)]);
  for (let k = 1; k < n; k++) b.addLink(Math.floor((k - 1) / 2), k, 'down', 'up', { latency: tree.levelLatency, bandwidth: tree.bandwidth });
  return b.build({
    family: 'combining-tree',
    spec: `combining-tree:${n},level-latency=${tree.levelLatency},bw=${tree.bandwidth}`,
    params: { n, depth: treeDepth(n), levelLatency: tree.levelLatency, bandwidth: tree.bandwidth, callOverhead: tree.callOverhead },
    distanceConvention: 'router-hops',
  });
}

/**
 * The program with each hwCollective replaced by a tree allreduce among all ranks, packet by packet:
 * receive each child's partial packet and combine it (in the adapter: γ = 0), send it to the parent;
 * then receive each result packet from the parent and send it to each child. Every hop carries the
 * call's largest contribution (non-participants send identities of that length). Each rank's first
 * operation of a call waits the call overhead. Ranks are tree nodes (rank k = heap node k).
 */
export function onCombiningTree(program: FlowProgram, tree: CombiningTree): FlowProgram {
  const n = program.numRanks;
  const S = program.numStreams;
  if (S !== n) throw new Error('onCombiningTree: one stream per rank expected');
  // Bytes of call k: the largest contribution among the ranks' k-th hwCollective.
  const callBytes: number[] = [];
  for (let s = 0; s < S; s++) {
    let k = 0;
    for (let o = program.opStart[s]; o < program.opStart[s + 1]; o++) {
      if (program.opKind[o] !== OpKind.HwCollective) continue;
      callBytes[k] = Math.max(callBytes[k] ?? 0, program.opBytes[o]);
      k++;
    }
  }
  const b = new FlowProgramBuilder(n, program.numOps + 5 * callBytes.length * n);
  const delays: number[] = [];
  let ops = 0;
  for (let s = 0; s < S; s++) {
    const r = program.streamRank[s];
    b.beginStream(r);
    const children = [2 * r + 1, 2 * r + 2].filter((c) => c < n);
    const parent = r === 0 ? -1 : Math.floor((r - 1) / 2);
    let k = 0;
    for (let o = program.opStart[s]; o < program.opStart[s + 1]; o++) {
      if (program.opKind[o] !== OpKind.HwCollective) {
        if (program.opKind[o] === OpKind.Copy) b.copy(program.opBytes[o]);
        else if (program.opKind[o] === OpKind.Reduce) b.reduce(program.opBytes[o]);
        else throw new Error(`onCombiningTree: a ${program.opKind[o]} operation outside the combining calls`);
        ops++;
        continue;
      }
      const packets = treePackets(callBytes[k], tree);
      delays[ops] = tree.callOverhead;
      // Tag k: the k-th call's messages never match another call's; its packets match in order.
      for (const bytes of packets) {
        for (const c of children) {
          b.recv(c, bytes, k).reduce(bytes);
          ops += 2;
        }
        if (parent >= 0) {
          b.send(parent, bytes, k);
          ops++;
        }
      }
      for (const bytes of packets) {
        if (parent >= 0) {
          b.recv(parent, bytes, k);
          ops++;
        }
        for (const c of children) {
          b.send(c, bytes, k);
          ops++;
        }
      }
      k++;
    }
  }
  const p = b.build();
  const opDelay = new Float64Array(p.numOps);
  delays.forEach((d, i) => (opDelay[i] = d));
  return p.with({ opDelay });
}

/** xor-swap of n ranks with `bytes` per element, run on the combining tree at flow level (α = 0: the adapters forward in hardware). */
export function xorSwapOnTree(n: number, bytes: number, tree: CombiningTree): number {
  const topology = combiningTree(n, tree);
  const schedule = buildSchedule({ collective: 'alltoall', algorithm: 'xor-swap', topology, size: bytes });
  const program = onCombiningTree(lowerSchedule(schedule, topology), tree);
  return simulate({ topology, program, engine: 'flow', model: { alpha: 0 }, workload: { algorithm: 'xor-swap on the combining tree', n, bytes } }).makespan_s;
}

/** Calls of an n-rank xor-swap: three allreduces per pair. */
export const xorSwapCalls = (n: number): number => (3 * n * (n - 1)) / 2;

/**
 * The tree's time, closed form (the test oracle of `xorSwapOnTree`): every call pays the overhead,
 * then the deepest leaf's path up and down. Each way, the first packet crosses the depth levels
 * store-and-forward (an adapter combines a packet once both children's are in) and the others
 * follow one packet time apart: depth × latency + (depth − 1) × first packet + all packets, over
 * the bandwidth.
 */
export function xorSwapTreeStoreForward(n: number, bytes: number, tree: CombiningTree): number {
  const packets = treePackets(bytes, tree);
  const depth = treeDepth(n);
  const oneWay = depth * tree.levelLatency + ((depth - 1) * packets[0] + bytes) / tree.bandwidth;
  return xorSwapCalls(n) * (tree.callOverhead + 2 * oneWay);
}

/**
 * The pipelined form the flow engine's hwCollective charges (bytes cross the tree once, cut through
 * every level): equal to the store-and-forward form less 2·depth − 1 element times per call.
 */
export function xorSwapTreeTime(n: number, bytes: number, tree: CombiningTree): number {
  return xorSwapCalls(n) * (tree.callOverhead + 2 * Math.ceil(Math.log2(n)) * tree.levelLatency + bytes / tree.bandwidth);
}
