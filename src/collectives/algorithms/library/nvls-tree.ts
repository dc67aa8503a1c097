/**
 * allreduce `nvls-tree`: NCCL's NVLS_TREE (src/device/all_reduce.h, runTreeSplit over the NVLS
 * channel's `nvls.treeUp/treeDown`), which NCCL runs for large allreduce across nodes of HGX H100
 * (NVIDIA/nccl-tests#309). Per pipelined chunk:
 * 1. an in-switch reduce-scatter inside every node: accelerator g ends with block g of the node's
 *    sum (multimem.ld_reduce; in the IR one hw allreduce per block, to which every accelerator of
 *    the node contributes and only g keeps the result: the others `contribute`);
 * 2. block g reduced across nodes among the accelerators g of all nodes (rail g, through NIC g);
 * 3. block g multicast back through the switch (multimem.st; an hw allreduce to which only g
 *    contributes, as nvls.ts).
 * The three phases run on three streams of their own, chunk j of a phase waiting for chunk j of the
 * one before on the same rank, as hierarchical.ts pipelines its phases.
 *
 * Across nodes NCCL runs a tree (its NVLS channel's head is a node of an inter-node tree); Meshwork
 * runs the per-rail ring allreduce of hierarchical.ts instead (reduce-scatter then allgather of
 * block g over rail g). On 2 nodes they move the same bytes (each NIC sends and receives the block
 * once: a tree's up and down halves, or the ring's two halves), which is NCCL's own "2 node case of
 * NVLSTree" (tuning.cc: bwInter × 2 when nNodes ≤ 2). On more nodes the ring pays 2(N − 1) network
 * steps where the tree pays 2 log2 N, and moves 2(N − 1)/N of the block per NIC against the tree's
 * 1 to 2: not the tree's timing (the picker's latency is NCCL's tree formula regardless).
 *
 * One channel: the IR's hw operations are timed as one combining network (bytes / hwBandwidth each,
 * not sharing the links with each other), so NCCL's 16 NVLS CTAs would each get the whole switch;
 * the switch's rate is the run's scale-up efficiency instead (tuning.ts libraryEfficiencies).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { unitOf } from '../common.js';
import { MACHINE_PARAM, PROTO_PARAM, contiguous, inSwitchReductionSupport, cut, layoutOf, ringAllgatherOn, ringReduceScatterOn, segmentTmpBytes, streamSignal } from './layout.js';

const [RS, AR, MC] = [0, 1, 2];
const DEPENDENCY = 1 << 20;


registerAlgorithm({
  name: 'nvls-tree',
  collective: 'allreduce',
  description: "NCCL's NVLS Tree: in-switch reduce-scatter in each node, per-rail allreduce across nodes, in-switch multicast back, pipelined in chunks",
  supportsText: 'topologies whose scale-up switches reduce (params.inSwitchReduction: hgx-h100, gb200-nvl72, fabric:...,nvls=on)',
  source: 'NCCL NVLS_TREE (src/device/all_reduce.h; issue 25)',
  params: [
    { key: 'chunks', kind: 'int', default: 1, min: 1, max: 1024, description: 'pipelined chunks (the phases of different chunks overlap)' },
    PROTO_PARAM,
    MACHINE_PARAM,
  ],
  supports: inSwitchReductionSupport,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const { gpusPerNode: G, nodes: N } = layoutOf(ctx.topology);
    const unit = unitOf(ctx);
    const b = newBuilder();
    const chunks = Math.max(1, Math.min(ctx.params.chunks as number, Math.floor(ctx.size / unit / n)));
    // One chunk needs no pipeline: the three phases follow each other on one stream.
    const [rs, ar, mc] = chunks === 1 ? [RS, RS, RS] : [RS, AR, MC];
    const nodeGroup = (node: number, stream: number): number => b.group(Array.from({ length: G }, (_, g) => node * G + g), [stream]);
    const rsGroups = Array.from({ length: N }, (_, node) => nodeGroup(node, rs));
    const mcGroups = Array.from({ length: N }, (_, node) => nodeGroup(node, mc));
    const pieces = cut(0, ctx.size, chunks, unit);
    const tmp = b.tmpBuffer('tmp', segmentTmpBytes(Math.ceil(ctx.size / chunks) + unit, G * N, unit));
    for (let j = 0; j < chunks; j++) {
      const [lo, hi] = [pieces[j], pieces[j + 1]];
      const blocks = cut(lo, hi, G, unit);
      const block = (g: number): number => b.region(RECV, blocks[g], blocks[g + 1] - blocks[g]);
      // 1. In-switch reduce-scatter: every accelerator contributes block g, only g keeps the node's sum.
      for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, lo, hi - lo), b.region(RECV, lo, hi - lo), rs);
      for (let g = 0; g < G; g++) {
        for (let r = 0; r < n; r++) b.hw(r, r % G === g ? 'allreduce' : 'contribute', ctx.op, block(g), rsGroups[Math.floor(r / G)], rs);
      }
      if (chunks > 1) streamSignal(b, n, rs, ar, DEPENDENCY + 2 * j);
      // 2. Block g across nodes on rail g (a ring allreduce standing for NCCL's tree: see above).
      for (let g = 0; g < G && N > 1; g++) {
        const rail = Array.from({ length: N }, (_, node) => node * G + g);
        const phase = { b, ring: rail, segment: contiguous(RECV, cut(blocks[g], blocks[g + 1], N, unit)), tmp, stream: ar, tag: 1 };
        ringReduceScatterOn(phase);
        ringAllgatherOn(phase);
      }
      if (chunks > 1) streamSignal(b, n, ar, mc, DEPENDENCY + 2 * j + 1);
      // 3. Multicast block g from its owner through the switch: the owner contributes, the others add nothing.
      for (let g = 0; g < G; g++) {
        for (let r = 0; r < n; r++) b.hw(r, 'allreduce', 'sum', r % G === g ? block(g) : -1, mcGroups[Math.floor(r / G)], mc, block(g));
      }
    }
    return b.finish();
  },
});
