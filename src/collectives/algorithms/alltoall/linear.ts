/**
 * alltoall `linear` (Open MPI's and SMPI's basic_linear): every rank posts all its receives
 * (irecv from r+1, r+2, ...), then all its sends (isend), then waits for all of them (waitall).
 * Non-blocking posting is what makes it safe under rendezvous: with blocking sends before the
 * receives, every rank would wait in its first send for a receive nobody has posted yet.
 * `batch=N` posts them in rounds of N offsets, a waitall per round (Tony Ladd's throttle, as MPICH's
 * and MVAPICH2's scatter_dest: offsets ii..ii+N−1, offset 0 the own block); `self=message` sends the own
 * block to itself as a message (irecv and isend) instead of a copy, as SMPI's mvapich2_scatter_dest
 * does. SimGrid routes it up and down the host's link on a FLAT cluster, and over a Full zone's
 * declared self route (a loopback), and so does Meshwork there (the `simgrid-flat` family's
 * selfRoute, ExplicitRoutes.self); a torus has no such route (smpirun aborts), and Meshwork
 * delivers it at once. `smp=true` first sends the messages of SMPI's init_smp, as Intel MPI's
 * alltoall does on one rank per host before its scatter_dest (SMPI's impi selector).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import type { ScheduleBuilder } from '../../schedule.js';
import { mod } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'linear',
  collective: 'alltoall',
  description: 'all receives then all sends posted at once (irecv, isend), then one waitall (MPI basic linear); in rounds with batch',
  source: 'classic (Open MPI / SMPI basic_linear; MVAPICH2 scatter_dest with batch=4,self=message)',
  supportsText: 'any rank count and topology',
  // Rounds of forward sends deadlock: a round's receives from r + i meet only sends to r − i.
  supports: (ctx) => (ctx.params.batch !== 0 && ctx.params.sends !== 'reverse' ? `batch=${String(ctx.params.batch)} needs sends=reverse (a round receives from r + i, which sends to r − i in the same round), got sends=${String(ctx.params.sends)}` : undefined),
  params: [
    {
      key: 'sends',
      kind: 'choice',
      choices: ['forward', 'reverse'],
      default: 'forward',
      description: 'send posting order: forward = r+1, r+2, ... (spreads the load); reverse = r-1, r-2, ... (Open MPI and SMPI basic_linear)',
    },
    { key: 'batch', kind: 'int', default: 0, min: 0, description: 'offsets per round, each round its irecvs, isends and a waitall (0 = all in one round; SMPI mvapich2_scatter_dest: 4)' },
    { key: 'self', kind: 'choice', choices: ['copy', 'message'], default: 'copy', description: 'the own block: a local copy, or a message to itself (SMPI mvapich2_scatter_dest)' },
    smpParam("impi selector's alltoall (init_smp, then mvapich2_scatter_dest)"),
  ],
  // Issue 29: rank-rotation-equivariant in both send orders: the copy of its own block, the n−1
  // irecvs from r+1, r+2, ..., the n−1 isends to r+i (forward) or r−i (reverse), one waitall.
  rotation(ctx) {
    if (ctx.params.batch !== 0 || ctx.params.self !== 'copy' || ctx.params.smp === true) return undefined;
    const n = ctx.ranks;
    const reverse = ctx.params.sends === 'reverse';
    return {
      opsPerRank: 2 * (n - 1) + 1 + (n > 1 ? 1 : 0),
      forEachOp(r, visit) {
        visit('copy', r, ctx.size, 0);
        for (let i = 1; i < n; i++) visit('irecv', (r + i) % n, ctx.size, 0);
        for (let i = 1; i < n; i++) visit('isend', reverse ? (r - i + n) % n : (r + i) % n, ctx.size, 0);
        if (n > 1) visit('waitall', 0, 0, 0);
      },
    };
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder({ expectedOps: 2 * n * n + 2 * n });
    const reverse = ctx.params.sends === 'reverse';
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    for (let r = 0; r < n; r++) {
      postInRounds(b, r, n, {
        batch: ctx.params.batch as number,
        selfMessage: ctx.params.self === 'message',
        sendPeer: (i) => (reverse ? mod(r - i, n) : mod(r + i, n)),
        recvRegion: (from) => b.block(RECV, from),
        sendRegion: (to) => b.block(SEND, to),
      });
    }
    return b.finish();
  },
});

/** How rank r posts its exchanges (postInRounds). */
export interface RoundPosting {
  /** Offsets per round (0: all in one). */
  readonly batch: number;
  /** The own block as a message to itself (irecv, isend) rather than a copy. */
  readonly selfMessage: boolean;
  /** The rank it sends to at offset i (0 ≤ i < n; offset 0 is itself). */
  readonly sendPeer: (i: number) => number;
  /** The region of the block from rank `from` (recv side) and to rank `to` (send side). */
  readonly recvRegion: (from: number) => number;
  readonly sendRegion: (to: number) => number;
}

/**
 * Rank r's exchange with every rank by offsets 0..n−1 in rounds of `batch`: per round irecvs from r + i
 * in offset order, then isends to sendPeer(i), then a waitall; offset 0 is the own block, a copy first
 * (SMPI skips it in the round, which still counts it) or, with selfMessage, a message like the others.
 */
export function postInRounds(b: ScheduleBuilder, r: number, n: number, p: RoundPosting): void {
  if (!p.selfMessage) b.copy(r, p.sendRegion(r), p.recvRegion(r));
  const batch = p.batch > 0 ? Math.min(p.batch, n) : n;
  for (let ii = 0; ii < n; ii += batch) {
    const offsets = Array.from({ length: Math.min(batch, n - ii) }, (_, i) => ii + i).filter((i) => i > 0 || p.selfMessage);
    for (const i of offsets) b.irecv(r, mod(r + i, n), p.recvRegion(mod(r + i, n)));
    for (const i of offsets) b.isend(r, p.sendPeer(i), p.sendRegion(p.sendPeer(i)));
    if (offsets.length > 0) b.waitall(r);
  }
}
