/**
 * gather `linear`: every rank sends its block to the root, which receives block i from rank i.
 * recvs=blocking: one receive after the other (SMPI ompi_basic_linear); preposted: every receive
 * posted at once, then a waitall (SMPI's default gather, its igather, smpi_nbc_impl.cpp); synchronized:
 * Open MPI's linear_sync, SMPI `ompi_linear_sync` (gather-ompi.cpp): the root, rank by rank, posts the
 * receive of the block's first segment (1 KiB; 32 KiB for blocks above 92,160 B; the whole block when it
 * is no larger), sends that rank a zero-byte go-ahead, posts the receive of the rest and waits for the
 * first segment; then it waits for all the rests. Each other rank waits for its go-ahead, then sends
 * its first segment and the rest (blocking; the rest may be empty).
 * smp=true: init_smp's messages first (SimGrid SMPI's impi gather selector builds the SMP communicators first).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import type { ScheduleBuilder } from '../../schedule.js';
import type { AlgorithmContext } from '../../registry.js';
import { UNRESTRICTED } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'linear',
  collective: 'gather',
  description: 'every rank sends its block directly to the root',
  source: 'classic',
  supportsText: UNRESTRICTED.supportsText,
  supports: UNRESTRICTED.supports,
  params: [
    {
      key: 'recvs',
      kind: 'choice',
      choices: ['blocking', 'preposted', 'synchronized'],
      default: 'blocking',
      description: 'blocking: the root receives one block after the other (SMPI ompi_basic_linear); preposted: all receives posted at once (SMPI default, igather); synchronized: a zero-byte go-ahead to each rank in turn, then its block in two segments (SMPI ompi_linear_sync)',
    },
    smpParam('impi gather selector (ompi_basic_linear)'),
  ],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    const mine = b.region(SEND, 0, ctx.size);
    if (ctx.params.recvs === 'synchronized') return synchronized(ctx, b);
    const preposted = ctx.params.recvs === 'preposted';
    for (let i = 0; i < n; i++) {
      if (i === ctx.root) b.copy(i, mine, b.block(RECV, i));
      else {
        b.send(i, ctx.root, mine);
        if (preposted) b.irecv(ctx.root, i, b.block(RECV, i));
        else b.recv(ctx.root, i, b.block(RECV, i));
      }
    }
    if (preposted && n > 1) b.waitall(ctx.root);
    return b.finish();
  },
});

/** Open MPI's first segment of linear_sync: 32 KiB for blocks above 92,160 B, else 1 KiB (the whole block when no larger). */
export function linearSyncFirstSegment(block: number): number {
  return Math.min(block, block > 92160 ? 32768 : 1024);
}

/** SMPI ompi_linear_sync: per rank in turn a go-ahead, then the first segment; every rest waited for at the end. */
function synchronized(ctx: AlgorithmContext, b: ScheduleBuilder) {
  const B = ctx.size;
  const first = linearSyncFirstSegment(B);
  const none = b.region(RECV, 0, 0);
  const part = (buf: number, offset: number, from: number, length: number): number => b.region(buf, offset + from, length);
  for (let i = 0; i < ctx.ranks; i++) {
    if (i === ctx.root) continue;
    b.recv(i, ctx.root, none, 1);
    b.send(i, ctx.root, part(SEND, 0, 0, first), 2);
    b.send(i, ctx.root, part(SEND, 0, first, B - first), 3);
    const head = b.irecv(ctx.root, i, part(RECV, i * B, 0, first), 2);
    b.send(ctx.root, i, none, 1);
    b.irecv(ctx.root, i, part(RECV, i * B, first, B - first), 3);
    b.wait(ctx.root, head);
  }
  b.copy(ctx.root, b.region(SEND, 0, B), b.block(RECV, ctx.root));
  if (ctx.ranks > 1) b.waitall(ctx.root);
  return b.finish();
}
