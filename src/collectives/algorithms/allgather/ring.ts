/**
 * allgather `ring`: n-1 steps. order=neighbour (default): in step k rank r passes block r-k to r+1
 * and receives block r-k-1 from r-1. order=shift: in step k rank r sends its own block to r+k and
 * receives block r-k from r-k, SimGrid SMPI's allgather `ring` (its neighbour ring is `NTSLR`).
 * recvs=preposted (neighbour order): SMPI's `NTSLR_NB` (allgather-NTSLR-NB.cpp): every rank first
 * posts all n-1 receives (irecv, tag = step), then per step isends its block and waits for that
 * step's receive and send; a message never waits for its receive to be posted. smp=true: init_smp's
 * messages first (SimGrid SMPI's mvapich2 allgather selector, which builds the SMP communicators, then runs ring).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { mod } from '../common.js';
import { initSmpEstimate, smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'ring',
  collective: 'allgather',
  description: 'n-1 steps around the ring: neighbour passing, or a shift of each own block (SMPI ring)',
  source: 'classic',
  supportsText: 'any rank count and topology (recvs=preposted: order=neighbour)',
  supports: (ctx) => (ctx.params.recvs === 'preposted' && ctx.params.order === 'shift' ? 'recvs=preposted needs order=neighbour' : undefined),
  params: [
    {
      key: 'recvs',
      kind: 'choice',
      choices: ['sendrecv', 'preposted'],
      default: 'sendrecv',
      description: 'sendrecv: each step a send and its receive (SMPI NTSLR); preposted: all receives posted first, isend and wait per step (SMPI NTSLR_NB)',
    },
    {
      key: 'order',
      kind: 'choice',
      choices: ['neighbour', 'shift'],
      default: 'neighbour',
      description: 'neighbour: pass blocks to rank+1 (SMPI NTSLR); shift: step k sends the own block to rank+k (SMPI ring)',
    },
    smpParam('mvapich2 allgather selector (ring)'),
  ],
  // A copy per rank, then n-1 steps of a send and a receive per rank.
  estimate: (ctx) => {
    const smp = ctx.params.smp === true ? initSmpEstimate(ctx.ranks) : { ops: 0, messages: 0 };
    return { ops: 2 * ctx.ranks * (ctx.ranks - 1) + ctx.ranks + smp.ops, messages: ctx.ranks * (ctx.ranks - 1) + smp.messages };
  },
  // Rotation-equivariant in both orders with sendrecv steps (issue 29, docs/flow.md "Representatives
  // only"): the ops as build() emits them, the copy then per step a send and its receive.
  rotation(ctx) {
    const n = ctx.ranks;
    if (n < 2 || ctx.params.recvs !== 'sendrecv' || ctx.params.smp === true) return undefined;
    const shift = ctx.params.order === 'shift';
    return {
      opsPerRank: 2 * (n - 1) + 1,
      forEachOp(r, visit) {
        visit('copy', r, ctx.size, 0);
        for (let k = 0; k < n - 1; k++) {
          visit('send', mod(shift ? r + k + 1 : r + 1, n), ctx.size, 0);
          visit('recv', mod(shift ? r - k - 1 : r - 1, n), ctx.size, 0);
        }
      },
    };
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const shift = ctx.params.order === 'shift';
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, 0, ctx.size), b.block(RECV, r));
    if (ctx.params.recvs === 'preposted') {
      for (let r = 0; r < n; r++) {
        const recvs: number[] = [];
        for (let k = 0; k < n - 1; k++) recvs.push(b.irecv(r, mod(r - 1, n), b.block(RECV, mod(r - k - 1, n)), k));
        for (let k = 0; k < n - 1; k++) {
          const send = b.isend(r, mod(r + 1, n), b.block(RECV, mod(r - k, n)), k);
          b.wait(r, recvs[k]);
          b.wait(r, send);
        }
      }
      return b.finish();
    }
    for (let k = 0; k < n - 1; k++) {
      for (let r = 0; r < n; r++) {
        if (shift) b.sendrecv(r, mod(r + k + 1, n), b.block(RECV, r), mod(r - k - 1, n), b.block(RECV, mod(r - k - 1, n)));
        else b.sendrecv(r, mod(r + 1, n), b.block(RECV, mod(r - k, n)), mod(r - 1, n), b.block(RECV, mod(r - k - 1, n)));
      }
    }
    return b.finish();
  },
});
