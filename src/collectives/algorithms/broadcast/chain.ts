/**
 * broadcast `chain`: a pipeline root -> root+1 -> ... in P segments; each rank forwards a segment as
 * soon as it has it (classic). recvs=preposted is SimGrid SMPI's bcast `NTSL` (bcast-NTSL.cpp):
 * the chain runs from rank 0 (a root other than 0 first sends the whole buffer to rank 0), every
 * rank posts all its segment receives at once (irecv, tag = segment), the root isends every segment
 * at once, each relay isends a segment as soon as it has it, and a waitall ends each rank; with
 * `segment=B` the segments are B bytes (SMPI: 8,192), the last one shorter (SMPI broadcasts that
 * remainder with its default algorithm instead), and a buffer of at most B bytes goes as one message,
 * by blocking sends. With smp=true, init_smp's messages first: SMPI's `SMP_linear` (bcast-SMP-linear.cpp)
 * on one rank per host, whose chain is NTSL's with blocking sends (detached at 8 KiB; it sends each segment
 * twice to the next rank, once as "inter" and once as "intra" node, and the last rank sends to rank 0:
 * those copies are never received, so they move no data in SMPI and Meshwork leaves them out).
 * recvs=double-buffered is SimGrid SMPI's `ompi_pipeline` (bcast-ompi-pipeline.cpp, Open MPI's pipeline
 * over its chain of fan-out 1 from the root): the root isends each segment and waits for it before the
 * next; a relay keeps two receives posted (segment k + 1's before it waits for segment k), forwards
 * segment k and waits for that send; the last rank keeps two receives posted. Its segment size
 * (Open MPI's rule by rank count and size) is what `ompi_pipeline` resolves to (smpi-names.ts).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import type { ScheduleBuilder } from '../../schedule.js';
import type { AlgorithmContext } from '../../registry.js';
import { mod, segmentBounds, segmentLimit } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'chain',
  collective: 'broadcast',
  description: 'pipelined chain in P segments (store-and-forward per segment): n-1+P-1 unit steps',
  supportsText: 'any rank count and topology',
  source: 'classic; recvs=preposted,segment=8192: SMPI NTSL (smp=true: SMP_linear); recvs=double-buffered: SMPI ompi_pipeline',
  params: [
    { key: 'segments', kind: 'int', default: 4, min: 1, max: 1 << 20, description: 'P, the number of pipeline segments (at most the size in bytes)' },
    { key: 'segment', kind: 'int', default: 0, min: 0, max: 2 ** 40, description: 'segment bytes (0: use segments=P); the last segment is what is left' },
    {
      key: 'recvs',
      kind: 'choice',
      choices: ['blocking', 'preposted', 'double-buffered'],
      default: 'blocking',
      description: 'blocking: recv then send per segment from the root; preposted: SMPI NTSL (chain from rank 0, all receives posted first, every segment isent at once); double-buffered: SMPI ompi_pipeline (two receives posted, each send waited for)',
    },
    smpParam('SMP_linear broadcast (with recvs=preposted,segment=8192)'),
  ],
  supports: (ctx) => segmentLimit(ctx.size, ctx.params.segment as number),
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder({ inPlace: true });
    const bounds = chainBounds(ctx);
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    if (ctx.params.recvs === 'preposted') return preposted(ctx, b, bounds);
    if (ctx.params.recvs === 'double-buffered') return doubleBuffered(ctx, b, bounds);
    const P = bounds.length - 1;
    for (let v = 0; v < n; v++) {
      const r = mod(v + ctx.root, n);
      for (let k = 0; k < P; k++) {
        const seg = b.region(RECV, bounds[k], bounds[k + 1] - bounds[k]);
        if (v > 0) b.recv(r, mod(r - 1, n), seg);
        if (v < n - 1) b.send(r, mod(r + 1, n), seg);
      }
    }
    return b.finish();
  },
});

/** Segment boundaries: P nearly equal segments, or B-byte segments and the remainder. */
function chainBounds(ctx: AlgorithmContext): number[] {
  const B = ctx.params.segment as number;
  if (B <= 0) return segmentBounds(ctx.size, Math.max(1, Math.min(Number(ctx.params.segments), ctx.size)));
  const bounds = [0];
  for (let at = B; at < ctx.size; at += B) bounds.push(at);
  bounds.push(ctx.size);
  return bounds;
}

/**
 * SMPI NTSL: the chain 0 -> 1 -> ... -> n-1 with every receive posted first and every send
 * non-blocking; a buffer of one segment goes by blocking sends (NTSL's `count <= segment` branch),
 * and SMP_linear sends every segment by blocking sends (detached at 8 KiB, so only SMPI's
 * smpi/os against smpi/ois tells them apart).
 */
function preposted(ctx: AlgorithmContext, b: ScheduleBuilder, bounds: number[]) {
  const n = ctx.ranks;
  const P = bounds.length - 1;
  const blocking = P === 1 || ctx.params.smp === true;
  const seg = (k: number): number => b.region(RECV, bounds[k], bounds[k + 1] - bounds[k]);
  if (ctx.root !== 0) {
    b.send(ctx.root, 0, b.region(RECV, 0, ctx.size), P);
    b.recv(0, ctx.root, b.region(RECV, 0, ctx.size), P);
  }
  if (n === 1) return b.finish();
  for (let r = 0; r < n; r++) {
    const recvs = r > 0 ? Array.from({ length: P }, (_, k) => b.irecv(r, r - 1, seg(k), k)) : [];
    for (let k = 0; k < P && r < n - 1; k++) {
      if (r > 0) b.wait(r, recvs[k]);
      if (blocking) b.send(r, r + 1, seg(k), k);
      else b.isend(r, r + 1, seg(k), k);
    }
    b.waitall(r);
  }
  return b.finish();
}

/** SMPI ompi_pipeline: the chain root -> root+1 -> ..., two receives posted at a time, each send waited for. */
function doubleBuffered(ctx: AlgorithmContext, b: ScheduleBuilder, bounds: number[]) {
  const n = ctx.ranks;
  const P = bounds.length - 1;
  const seg = (k: number): number => b.region(RECV, bounds[k], bounds[k + 1] - bounds[k]);
  for (let v = 0; v < n; v++) {
    const r = mod(v + ctx.root, n);
    const next = v < n - 1 ? mod(r + 1, n) : -1;
    const forward = (k: number): void => {
      if (next >= 0) b.wait(r, b.isend(r, next, seg(k)));
    };
    if (v === 0) {
      for (let k = 0; k < P; k++) forward(k);
      continue;
    }
    const prev = mod(r - 1, n);
    let pending = b.irecv(r, prev, seg(0));
    for (let k = 1; k < P; k++) {
      const following = b.irecv(r, prev, seg(k));
      b.wait(r, pending);
      forward(k - 1);
      pending = following;
    }
    b.wait(r, pending);
    forward(P - 1);
  }
  return b.finish();
}
