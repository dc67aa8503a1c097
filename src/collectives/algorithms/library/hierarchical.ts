/**
 * allreduce `hierarchical`: NCCL's multi-node decomposition (and the traffic of its Tree across
 * nodes): a ring reduce-scatter inside every node (accelerator g ends with block g of the node's
 * sum), a ring allreduce of block g among the accelerators g of all nodes (rail g, through NIC g),
 * then a ring allgather inside every node. Each node sends the buffer once out and once in across
 * the scale-out network, split over its G rails, against 2(n−1)/n of it per NIC for a flat ring.
 *
 * Pipelined as the library pipelines its tree: each channel's slice is cut into `chunks`, and the
 * three phases run on three streams of their own, chunk j of a phase waiting for chunk j of the one
 * before on the same rank (a zero-byte message to itself, as MSCCL's dependencies), so the
 * scale-out phase of one chunk overlaps the scale-up phases of the others.
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { unitOf } from '../common.js';
import { CHANNELS_PARAM, MACHINE_PARAM, PROTO_PARAM, channelCount, channelRing, contiguous, cut, layoutOf, ringAllgatherOn, ringReduceScatterOn, segmentTmpBytes, streamSignal } from './layout.js';

/** Tags: 3 per channel for the phases' messages, then the dependency signals. */
const PHASE_TAGS = 3;
const DEPENDENCY = 1 << 20;


registerAlgorithm({
  name: 'hierarchical',
  collective: 'allreduce',
  description: 'intra-node ring reduce-scatter, per-rail inter-node ring allreduce, intra-node ring allgather, pipelined in chunks',
  supportsText: 'a fabric topology (nodes of G accelerators) or any topology as one node',
  source: 'NCCL hierarchical allreduce (issue 25)',
  params: [
    { ...CHANNELS_PARAM, description: 'channels: slices of the buffer, each on its own streams and its own intra-node ring (on a full mesh each channel takes another of the disjoint rings); 0: as nccl-ring' },
    { key: 'chunks', kind: 'int', default: 1, min: 1, max: 1024, description: 'pipelined chunks per channel (the phases of different chunks overlap)' },
    PROTO_PARAM,
    MACHINE_PARAM,
  ],
  supports: () => undefined,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const layout = layoutOf(ctx.topology);
    const G = layout.gpusPerNode;
    const N = layout.nodes;
    const unit = unitOf(ctx);
    const b = newBuilder();
    const channels = Math.max(1, Math.min(channelCount(layout, ctx.params.channels as number), Math.floor(ctx.size / unit / n)));
    const slices = cut(0, ctx.size, channels, unit);
    for (let c = 0; c < channels; c++) {
      // The channel's ring inside a node (the same local order in every node), so rail i joins the
      // accelerators at position i of every node.
      const order = channelRing(layout, c).slice(0, G);
      const local = (node: number): number[] => order.map((g) => node * G + g);
      const chunks = Math.max(1, Math.min(ctx.params.chunks as number, Math.floor((slices[c + 1] - slices[c]) / unit / n)));
      const pieces = cut(slices[c], slices[c + 1], chunks, unit);
      // One chunk needs no pipeline: the three phases follow each other on one stream.
      const [rs, ar, ag] = chunks === 1 ? [c, c, c] : [3 * c, 3 * c + 1, 3 * c + 2];
      const tmpBytes = segmentTmpBytes(slices[c + 1] - slices[c], G, unit);
      const tmpRs = b.tmpBuffer(`rs${c}`, tmpBytes);
      const tmpAr = chunks === 1 ? tmpRs : b.tmpBuffer(`ar${c}`, tmpBytes);
      for (let j = 0; j < chunks; j++) {
        const [lo, hi] = [pieces[j], pieces[j + 1]];
        const blocks = cut(lo, hi, G, unit);
        for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, lo, hi - lo), b.region(RECV, lo, hi - lo), rs);
        for (let node = 0; node < N; node++) ringReduceScatterOn({ b, ring: local(node), segment: contiguous(RECV, blocks), tmp: tmpRs, stream: rs, tag: PHASE_TAGS * c });
        if (chunks > 1) streamSignal(b, n, rs, ar, DEPENDENCY + 2 * (c * chunks + j));
        for (let g = 0; g < G && N > 1; g++) {
          const rail = Array.from({ length: N }, (_, node) => node * G + order[g]);
          const phase = { b, ring: rail, segment: contiguous(RECV, cut(blocks[g], blocks[g + 1], N, unit)), tmp: tmpAr, stream: ar, tag: PHASE_TAGS * c + 1 };
          ringReduceScatterOn(phase);
          ringAllgatherOn(phase);
        }
        if (chunks > 1) streamSignal(b, n, ar, ag, DEPENDENCY + 2 * (c * chunks + j) + 1);
        for (let node = 0; node < N; node++) ringAllgatherOn({ b, ring: local(node), segment: contiguous(RECV, blocks), tmp: -1, stream: ag, tag: PHASE_TAGS * c + 2 });
      }
    }
    return b.finish();
  },
});
