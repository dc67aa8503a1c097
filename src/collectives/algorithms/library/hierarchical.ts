/**
 * allreduce `hierarchical`: NCCL's multi-node decomposition (and the traffic of its Tree across
 * nodes): a ring reduce-scatter inside every node (accelerator g ends with block g of the node's
 * sum), a ring allreduce of block g among the accelerators g of all nodes (rail g, through NIC g),
 * then a ring allgather inside every node. Each node sends the buffer once out and once in across
 * the scale-out network, split over its G rails, against 2(n−1)/n of it per NIC for a flat ring.
 * Channels split the buffer into slices on their own streams, as `nccl-ring`.
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { unitOf } from '../common.js';
import { CHANNELS_PARAM, PROTO_PARAM, contiguous, cut, layoutOf, segmentTmpBytes, ringAllgatherOn, ringReduceScatterOn } from './layout.js';

registerAlgorithm({
  name: 'hierarchical',
  collective: 'allreduce',
  description: 'intra-node ring reduce-scatter, per-rail inter-node ring allreduce, intra-node ring allgather',
  supportsText: 'a fabric topology (nodes of G accelerators) or any topology as one node',
  source: 'NCCL hierarchical allreduce (issue 25)',
  params: [{ ...CHANNELS_PARAM, default: 1, description: 'channels: slices of the buffer on their own streams' }, PROTO_PARAM],
  supports: () => undefined,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const layout = layoutOf(ctx.topology);
    const G = layout.gpusPerNode;
    const N = layout.nodes;
    const unit = unitOf(ctx);
    const b = newBuilder();
    const channels = Math.max(1, Math.min(ctx.params.channels as number, Math.floor(ctx.size / unit)));
    const slices = cut(0, ctx.size, channels, unit);
    for (let c = 0; c < channels; c++) {
      const [lo, hi] = [slices[c], slices[c + 1]];
      const blocks = cut(lo, hi, G, unit);
      const tmp = b.tmpBuffer(`ch${c}`, segmentTmpBytes(hi - lo, G, unit));
      for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, lo, hi - lo), b.region(RECV, lo, hi - lo), c);
      const local = (node: number): number[] => Array.from({ length: G }, (_, g) => node * G + g);
      for (let node = 0; node < N; node++) ringReduceScatterOn({ b, ring: local(node), segment: contiguous(RECV, blocks), tmp, stream: c, tag: 3 * c });
      for (let g = 0; g < G && N > 1; g++) {
        const rail = Array.from({ length: N }, (_, node) => node * G + g);
        const phase = { b, ring: rail, segment: contiguous(RECV, cut(blocks[g], blocks[g + 1], N, unit)), tmp, stream: c, tag: 3 * c + 1 };
        ringReduceScatterOn(phase);
        ringAllgatherOn(phase);
      }
      for (let node = 0; node < N; node++) ringAllgatherOn({ b, ring: local(node), segment: contiguous(RECV, blocks), tmp, stream: c, tag: 3 * c + 2 });
    }
    return b.finish();
  },
});
