/**
 * allreduce `nvls`: in-switch reduction (NVLink SHARP, NCCL's NVLS; SHARP-style), for topologies
 * whose scale-up switches declare it (`params.inSwitchReduction`: `hgx-h100`, `gb200-nvl72`,
 * `fabric:...,nvls=on`). Inside a node the switch reduces and multicasts the buffer: one
 * combining-network operation (the IR's hw allreduce) over the node's accelerators. Across nodes
 * (NCCL's NVLS + tree): the node sum, then a ring allreduce of block g among the accelerators g of
 * all nodes (rail g), then each block multicast back through the switch (an hw allreduce to which
 * only its owner contributes).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { unitOf } from '../common.js';
import { MACHINE_PARAM, PROTO_PARAM, contiguous, inSwitchReductionSupport, cut, layoutOf, ringAllgatherOn, ringReduceScatterOn, segmentTmpBytes } from './layout.js';

registerAlgorithm({
  name: 'nvls',
  collective: 'allreduce',
  description: 'in-switch reduction (NVLS / SHARP): the switch reduces and multicasts within a node; per-rail ring allreduce across nodes',
  supportsText: 'topologies whose scale-up switches reduce (params.inSwitchReduction: hgx-h100, gb200-nvl72, fabric:...,nvls=on)',
  source: 'NCCL NVLS (issue 25)',
  params: [PROTO_PARAM, MACHINE_PARAM],
  supports: inSwitchReductionSupport,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const { gpusPerNode: G, nodes: N } = layoutOf(ctx.topology);
    const unit = unitOf(ctx);
    const b = newBuilder();
    const whole = b.region(RECV, 0, ctx.size);
    const groups = Array.from({ length: N }, (_, node) => b.group(Array.from({ length: G }, (_, g) => node * G + g)));
    for (let r = 0; r < n; r++) {
      b.copy(r, b.region(SEND, 0, ctx.size), whole);
      b.hw(r, 'allreduce', ctx.op, whole, groups[Math.floor(r / G)]);
    }
    if (N === 1) return b.finish();
    const blocks = cut(0, ctx.size, G, unit);
    const tmp = b.tmpBuffer('tmp', segmentTmpBytes(ctx.size, G * N, unit));
    for (let g = 0; g < G; g++) {
      const rail = Array.from({ length: N }, (_, node) => node * G + g);
      const phase = { b, ring: rail, segment: contiguous(RECV, cut(blocks[g], blocks[g + 1], N, unit)), tmp, stream: 0, tag: 1 };
      ringReduceScatterOn(phase);
      ringAllgatherOn(phase);
    }
    // Multicast each block from its owner through the switch: the owner contributes, the others add nothing.
    for (let g = 0; g < G; g++) {
      const block = b.region(RECV, blocks[g], blocks[g + 1] - blocks[g]);
      for (let r = 0; r < n; r++) b.hw(r, 'allreduce', 'sum', r % G === g ? block : -1, groups[Math.floor(r / G)], 0, block);
    }
    return b.finish();
  },
});
