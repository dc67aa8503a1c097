/**
 * `nccl-ring` for allreduce, allgather and reduce-scatter: what NCCL and RCCL run as Ring. The data
 * is cut into C channel slices, each moved by its own stream around its own ring (layout.ts,
 * `channelRing`: rotations through the NVSwitch node starting at a different accelerator, or
 * different strides over a full mesh, so channels leave each node through different NICs or use
 * different direct links), and each slice into `chunks` pipelined loops of n segments. Allreduce is
 * a reduce-scatter then an allgather around the ring, 2(n−1) steps per loop (NCCL's ring allreduce).
 */
import { registerAlgorithm, type AlgorithmContext } from '../../registry.js';
import { RECV, SEND, type ScheduleBuilder } from '../../schedule.js';
import { unitOf } from '../common.js';
import { CHANNELS_PARAM, CHUNKS_PARAM, MACHINE_PARAM, PROTO_PARAM, channelCount, channelRing, contiguous, cut, layoutOf, segmentTmpBytes, ringAllgatherOn, ringReduceScatterOn } from './layout.js';
import type { CollectiveKind } from '../../types.js';

const PARAMS = [CHANNELS_PARAM, CHUNKS_PARAM, PROTO_PARAM, MACHINE_PARAM];

/**
 * Per channel and loop: the byte range [lo, hi) of `bytes` the loop moves. A loop range is cut into
 * `segments` pieces (n for allreduce, 1 where a segment is a slice of a block): channels and chunks
 * are capped so that no segment is empty when the data allows it.
 */
function loops(ctx: AlgorithmContext, bytes: number, unit: number, segments: number, fn: (channel: number, lo: number, hi: number) => void): void {
  const layout = layoutOf(ctx.topology);
  const units = Math.floor(bytes / unit);
  const channels = Math.max(1, Math.min(channelCount(layout, ctx.params.channels as number), Math.floor(units / segments)));
  const chunks = ctx.params.chunks as number;
  const slices = cut(0, bytes, channels, unit);
  for (let c = 0; c < channels; c++) {
    const parts = Math.max(1, Math.min(chunks, Math.floor((slices[c + 1] - slices[c]) / unit / segments)));
    const l = cut(slices[c], slices[c + 1], parts, unit);
    for (let j = 0; j < parts; j++) if (l[j + 1] > l[j] || j === 0) fn(c, l[j], l[j + 1]);
  }
}

function register(collective: CollectiveKind, description: string, build: (ctx: AlgorithmContext, b: ScheduleBuilder) => void): void {
  registerAlgorithm({
    name: 'nccl-ring',
    collective,
    description,
    supportsText: 'any rank count and topology (rings follow a fabric\'s nodes and NICs)',
    source: 'NCCL/RCCL Ring (issue 25)',
    params: PARAMS,
    supports: () => undefined,
    build(ctx, newBuilder) {
      const b = newBuilder();
      build(ctx, b);
      return b.finish();
    },
  });
}

register('allreduce', 'NCCL ring allreduce: C channels on their own rings, chunked loops, reduce-scatter then allgather', (ctx, b) => {
  const n = ctx.ranks;
  const layout = layoutOf(ctx.topology);
  const unit = unitOf(ctx);
  const tmps = new Map<number, number>();
  loops(ctx, ctx.size, unit, n, (c, lo, hi) => {
    const bounds = cut(lo, hi, n, unit);
    let tmp = tmps.get(c);
    if (tmp === undefined) tmps.set(c, (tmp = b.tmpBuffer(`ch${c}`, segmentTmpBytes(ctx.size, n, unit))));
    // Each channel seeds its own slice on its own stream (streams run concurrently).
    for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, lo, hi - lo), b.region(RECV, lo, hi - lo), c);
    const phase = { b, ring: channelRing(layout, c), segment: contiguous(RECV, bounds), tmp, stream: c, tag: c };
    ringReduceScatterOn(phase);
    ringAllgatherOn(phase);
  });
});

register('allgather', 'NCCL ring allgather: C channels on their own rings, each a slice of every block, chunked loops', (ctx, b) => {
  const n = ctx.ranks;
  const layout = layoutOf(ctx.topology);
  const B = ctx.size;
  loops(ctx, B, 1, 1, (c, lo, hi) => {
    const ring = channelRing(layout, c);
    for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, lo, hi - lo), b.region(RECV, r * B + lo, hi - lo), c);
    ringAllgatherOn({ b, ring, segment: (i) => [RECV, ring[i] * B + lo, hi - lo], tmp: -1, stream: c, tag: c });
  });
});

register('reduce-scatter', 'NCCL ring reduce-scatter: C channels on their own rings, each a slice of every block, chunked loops', (ctx, b) => {
  const n = ctx.ranks;
  const layout = layoutOf(ctx.topology);
  const unit = unitOf(ctx);
  const B = ctx.size / n;
  const acc = b.tmpBuffer('acc', ctx.size);
  const tmps = new Map<number, number>();
  loops(ctx, B, unit, 1, (c, lo, hi) => {
    const ring = channelRing(layout, c);
    let tmp = tmps.get(c);
    if (tmp === undefined) tmps.set(c, (tmp = b.tmpBuffer(`ch${c}`, B + unit)));
    for (let r = 0; r < n; r++) for (let i = 0; i < n; i++) b.copy(r, b.region(SEND, i * B + lo, hi - lo), b.region(acc, i * B + lo, hi - lo), c);
    ringReduceScatterOn({ b, ring, segment: (i) => [acc, ring[i] * B + lo, hi - lo], tmp, stream: c, tag: c });
    for (let r = 0; r < n; r++) b.copy(r, b.region(acc, r * B + lo, hi - lo), b.region(RECV, lo, hi - lo), c);
  });
});
