/**
 * broadcast `binary-tree`: SimGrid SMPI's `NTSB` (bcast-NTSB.cpp): a pipelined broadcast down the binary
 * tree of rank numbers rooted at rank 0 (rank r's children 2r + 1 and 2r + 2; a root other than 0 first
 * sends the whole buffer to rank 0). The buffer goes in `segment`-byte segments (SMPI: 8,192 with
 * MPI_BYTE): every rank posts all its segment receives at once (irecv, tag = segment), rank 0 isends
 * every segment to its children (left, right per segment), each inner rank forwards a segment (isend to
 * both children) as soon as it has it, and a waitall ends each rank. A buffer of at most one segment goes
 * unpipelined with blocking sends (receive, send left, send right). What is left after the whole segments
 * is broadcast after them the same way, unpipelined (SMPI broadcasts it with the configured bcast, NTSB
 * itself when named). smp=true: init_smp's messages first: SMPI's `SMP_binary` (bcast-SMP-binary.cpp)
 * on one rank per host, whose blocking 8 KiB sends are detached and so run as these isends.
 */
import type { AlgorithmContext } from '../../registry.js';
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import type { ScheduleBuilder } from '../../schedule.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';
import { NTSB_SEGMENT } from './smpi-segments.js';
import { segmentLimit } from '../common.js';


registerAlgorithm({
  name: 'binary-tree',
  collective: 'broadcast',
  description: 'pipelined broadcast down the binary tree of rank numbers (r -> 2r+1, 2r+2) from rank 0, every receive posted first (SMPI NTSB)',
  supportsText: 'any rank count and topology; at most 2^20 segments',
  source: 'SimGrid SMPI NTSB (bcast-NTSB.cpp); smp=true: SMP_binary',
  params: [
    { key: 'segment', kind: 'int', default: NTSB_SEGMENT, min: 1, max: 2 ** 40, description: 'segment bytes (SMPI: 8,192); the bytes after the last whole segment go afterwards, unpipelined' },
    smpParam('SMP_binary broadcast'),
  ],
  supports: (ctx) => segmentLimit(ctx.size, ctx.params.segment as number),
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder({ inPlace: true });
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    if (n === 1) return b.finish();
    const B = ctx.params.segment as number;
    const pipes = Math.floor(ctx.size / B);
    if (ctx.size <= B) {
      unpipelined(ctx, b, 0, ctx.size, 0);
      return b.finish();
    }
    forwardToZero(ctx, b, 0, ctx.size, pipes + 1);
    const seg = (k: number): number => b.region(RECV, k * B, B);
    for (let r = 0; r < n; r++) {
      const children = [2 * r + 1, 2 * r + 2].filter((c) => c < n);
      const recvs = r > 0 ? Array.from({ length: pipes }, (_, k) => b.irecv(r, (r - 1) >> 1, seg(k), k)) : [];
      for (let k = 0; k < pipes && children.length > 0; k++) {
        if (r > 0) b.wait(r, recvs[k]);
        for (const c of children) b.isend(r, c, seg(k), k);
      }
      b.waitall(r);
    }
    const rest = ctx.size - pipes * B;
    if (rest > 0) unpipelined(ctx, b, pipes * B, rest, pipes + 2);
    return b.finish();
  },
});

/** A root other than 0 sends bytes [offset, offset + length) to rank 0 first (blocking). */
function forwardToZero(ctx: AlgorithmContext, b: ScheduleBuilder, offset: number, length: number, tag: number): void {
  if (ctx.root === 0) return;
  b.send(ctx.root, 0, b.region(RECV, offset, length), tag);
  b.recv(0, ctx.root, b.region(RECV, offset, length), tag);
}

/** NTSB below one segment: rank 0 sends left then right; each other rank receives, then sends to its children. */
function unpipelined(ctx: AlgorithmContext, b: ScheduleBuilder, offset: number, length: number, tag: number): void {
  forwardToZero(ctx, b, offset, length, tag + 1);
  const all = b.region(RECV, offset, length);
  for (let r = 0; r < ctx.ranks; r++) {
    if (r > 0) b.recv(r, (r - 1) >> 1, all, tag);
    for (const c of [2 * r + 1, 2 * r + 2]) if (c < ctx.ranks) b.send(r, c, all, tag);
  }
}
