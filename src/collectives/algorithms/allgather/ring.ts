/**
 * allgather `ring`: n-1 steps. order=neighbour (default): in step k rank r passes block r-k to r+1
 * and receives block r-k-1 from r-1. order=shift: in step k rank r sends its own block to r+k and
 * receives block r-k from r-k, SimGrid SMPI's allgather `ring` (its neighbour ring is `NTSLR`).
 * recvs=preposted (neighbour order): SMPI's `NTSLR_NB` (allgather-NTSLR-NB.cpp): every rank first
 * posts all n-1 receives (irecv, tag = step), then per step isends its block and waits for that
 * step's receive and send; a message never waits for its receive to be posted. recvs=per-step: each
 * step an irecv from r−1, the isend to r+1, then a wait for that receive (SMPI's `loosely_lr`,
 * allgather-loosely-lr.cpp). sends=at-end (non-blocking receives): the isends are waited for once, after
 * the last step, not each in its step (`loosely_lr`, and `SMP_NTS`, allgather-SMP-NTS.cpp, with preposted
 * receives). order=xor (a power of two): step k swaps the own block with rank r XOR k, a blocking
 * sendrecv (SMPI's `pair`, allgather-pair.cpp). smp=true: init_smp's messages first (SimGrid SMPI's
 * mvapich2 allgather selector, which builds the SMP communicators, then runs ring; loosely_lr and SMP_NTS,
 * which build them before their ring; on one rank per host their intra-node steps send nothing).
 */
import { isPowerOfTwo, registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { mod } from '../common.js';
import { initSmpEstimate, smpiInitSmp, smpParam } from '../smpi-init-smp.js';

registerAlgorithm({
  name: 'ring',
  collective: 'allgather',
  description: 'n-1 steps around the ring: neighbour passing, or a shift of each own block (SMPI ring)',
  source: 'classic',
  supportsText: 'any rank count and topology (recvs=preposted or per-step: order=neighbour; order=xor: a power of two)',
  supports: (ctx) => {
    if (ctx.params.recvs !== 'sendrecv' && ctx.params.order !== 'neighbour') return `recvs=${String(ctx.params.recvs)} needs order=neighbour`;
    if (ctx.params.order === 'xor' && !isPowerOfTwo(ctx.ranks)) return `order=xor needs a power-of-two rank count, got ${ctx.ranks} (SMPI's pair throws there too)`;
    if (ctx.params.sends === 'at-end' && ctx.params.recvs === 'sendrecv') return 'sends=at-end needs non-blocking receives (recvs=preposted or per-step)';
    return undefined;
  },
  params: [
    {
      key: 'recvs',
      kind: 'choice',
      choices: ['sendrecv', 'preposted', 'per-step'],
      default: 'sendrecv',
      description: 'sendrecv: each step a send and its receive (SMPI NTSLR); preposted: all receives posted first, isend and wait per step (SMPI NTSLR_NB); per-step: each step irecv, isend, wait for the receive (SMPI loosely_lr)',
    },
    {
      key: 'sends',
      kind: 'choice',
      choices: ['each-step', 'at-end'],
      default: 'each-step',
      description: 'with non-blocking receives, when the isends are waited for: each in its step (SMPI NTSLR_NB), or all after the last step (SMPI SMP_NTS, loosely_lr)',
    },
    {
      key: 'order',
      kind: 'choice',
      choices: ['neighbour', 'shift', 'xor'],
      default: 'neighbour',
      description: 'neighbour: pass blocks to rank+1 (SMPI NTSLR); shift: step k sends the own block to rank+k (SMPI ring); xor: step k swaps the own block with rank XOR k (SMPI pair)',
    },
    smpParam('mvapich2 allgather selector (ring), loosely_lr and SMP_NTS'),
  ],
  // A copy per rank, then n-1 steps of a send and a receive per rank.
  estimate: (ctx) => {
    const smp = ctx.params.smp === true ? initSmpEstimate(ctx.ranks) : { ops: 0, messages: 0 };
    // Non-blocking receives add a wait per step (and per step or one at the end for the sends).
    const waits = ctx.params.recvs === 'sendrecv' || ctx.ranks < 2 ? 0 : ctx.params.sends === 'at-end' ? ctx.ranks * ctx.ranks : 2 * ctx.ranks * (ctx.ranks - 1);
    return { ops: 2 * ctx.ranks * (ctx.ranks - 1) + ctx.ranks + waits + smp.ops, messages: ctx.ranks * (ctx.ranks - 1) + smp.messages };
  },
  // Rotation-equivariant in both orders with sendrecv steps (issue 29, docs/flow.md "Representatives
  // only"): the ops as build() emits them, the copy then per step a send and its receive.
  rotation(ctx) {
    const n = ctx.ranks;
    if (n < 2 || ctx.params.recvs !== 'sendrecv' || ctx.params.smp === true) return undefined;
    const shift = ctx.params.order === 'shift';
    // XOR order: rank r's partners are rank 0's XORed with r (a power of two).
    const xor = ctx.params.order === 'xor';
    return {
      action: xor ? 'xor' : 'rotation',
      opsPerRank: 2 * (n - 1) + 1,
      forEachOp(r, visit) {
        visit('copy', r, ctx.size, 0);
        for (let k = 0; k < n - 1; k++) {
          visit('send', xor ? r ^ (k + 1) : mod(shift ? r + k + 1 : r + 1, n), ctx.size, 0);
          visit('recv', xor ? r ^ (k + 1) : mod(shift ? r - k - 1 : r - 1, n), ctx.size, 0);
        }
      },
    };
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const order = ctx.params.order;
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, 0, ctx.size), b.block(RECV, r));
    if (ctx.params.recvs !== 'sendrecv') {
      const preposted = ctx.params.recvs === 'preposted';
      const sendsAtEnd = ctx.params.sends === 'at-end';
      for (let r = 0; r < n; r++) {
        if (n < 2) continue;
        const recvs: number[] = [];
        const post = (k: number) => recvs.push(b.irecv(r, mod(r - 1, n), b.block(RECV, mod(r - k - 1, n)), k));
        if (preposted) for (let k = 0; k < n - 1; k++) post(k);
        for (let k = 0; k < n - 1; k++) {
          if (!preposted) post(k);
          const send = b.isend(r, mod(r + 1, n), b.block(RECV, mod(r - k, n)), k);
          b.wait(r, recvs[k]);
          if (!sendsAtEnd) b.wait(r, send);
        }
        if (sendsAtEnd) b.waitall(r);
      }
      return b.finish();
    }
    for (let k = 0; k < n - 1; k++) {
      for (let r = 0; r < n; r++) {
        if (order === 'xor') b.sendrecv(r, r ^ (k + 1), b.block(RECV, r), r ^ (k + 1), b.block(RECV, r ^ (k + 1)));
        else if (order === 'shift') b.sendrecv(r, mod(r + k + 1, n), b.block(RECV, r), mod(r - k - 1, n), b.block(RECV, mod(r - k - 1, n)));
        else b.sendrecv(r, mod(r + 1, n), b.block(RECV, mod(r - k, n)), mod(r - 1, n), b.block(RECV, mod(r - k - 1, n)));
      }
    }
    return b.finish();
  },
});
