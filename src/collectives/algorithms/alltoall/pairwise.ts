/**
 * alltoall `pairwise`: n-1 steps; in step k rank r exchanges with one partner (classic, MPI).
 * Partner r XOR k when n is a power of two (each step is a perfect matching), else a shift:
 * send to r+k, receive from r-k. `order=coords` (a torus or mesh numbered as its nodes): step k
 * moves every rank by k's coordinates, digit by digit mod each axis (send to r + k, receive from
 * r − k, as vectors), so each step is one translation of the torus: every flow of a step is a
 * translate of every other, and a torus run is timed from one representative (issue 29). `buffers=inplace` (XOR partners only) exchanges within the one
 * data buffer: in step k rank r sends slot r XOR k and receives its partner's block into a one-block
 * temporary, then copies it into the slot just sent, n + 1 blocks in all: the strongest fair
 * baseline for seed 002's one-buffer claim. smp=true (separate buffers): init_smp's messages first
 * (SimGrid SMPI's impi alltoall selector builds the SMP communicators before its pair). `sync`
 * (step-sync.ts): SMPI's pair_light_barrier, pair_mpi_barrier and pair_one_barrier with order=xor.
 */
import { isPowerOfTwo, registerAlgorithm, type RankAction } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import type { ScheduleBuilder } from '../../schedule.js';
import type { Topology } from '../../../topology/graph.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';
import { SYNC_PARAM, syncedSteps, type StepSync } from './step-sync.js';
import { gridShape, type GridShape } from './axis-phases.js';

registerAlgorithm({
  name: 'pairwise',
  collective: 'alltoall',
  description: 'n-1 exchange steps: partner = rank XOR step (powers of two) or shift by step (otherwise)',
  supportsText: 'any rank count and topology (order=coords: a torus or mesh numbered as its nodes)',
  source: 'classic (MPI)',
  params: [
    { key: 'order', kind: 'choice', choices: ['auto', 'xor', 'shift', 'coords'], default: 'auto', description: 'partner rule; auto = xor for powers of two; coords = shift by the step\'s coordinates (torus/mesh)' },
    { key: 'buffers', kind: 'choice', choices: ['separate', 'inplace'], default: 'separate', description: 'separate send and receive buffers, or in place with a one-block temporary (XOR partners)' },
    smpParam('impi alltoall selector (pair)'),
    SYNC_PARAM,
  ],
  supports: (ctx) => {
    if (ctx.params.order === 'xor' && !isPowerOfTwo(ctx.ranks)) return `order=xor needs a power-of-two rank count, got ${ctx.ranks}`;
    if (ctx.params.order === 'coords') {
      const g = gridShape(ctx.topology);
      if (typeof g === 'string') return `order=coords needs ${g}`;
    }
    if (ctx.params.buffers === 'inplace' && ctx.params.smp === true) return 'smp=true needs buffers=separate (SMPI\'s pair)';
    if (ctx.params.buffers === 'inplace' && ctx.params.sync !== 'none') return `sync=${String(ctx.params.sync)} needs buffers=separate (SMPI's pair barrier variants)`;
    if (ctx.params.buffers === 'inplace' && (ctx.params.order === 'shift' || ctx.params.order === 'coords' || !isPowerOfTwo(ctx.ranks))) return `buffers=inplace needs XOR partners (a power-of-two rank count, order auto or xor), got ${ctx.ranks} ranks, order=${String(ctx.params.order)}`;
    return undefined;
  },
  // Issue 29 (symmetry from the representatives' streams alone): with separate buffers every block
  // has the size, so rank r's ops are rank 0's with peers XORed with r (XOR order) or shifted by r
  // (shift order), translated by r's coordinates (coords order). The ops as build() emits them and
  // lowerSchedule counts them: the copy of the rank's own block, then per step a send and its
  // receive (tag 0).
  rotation(ctx) {
    if (ctx.params.buffers === 'inplace' || ctx.params.smp === true || ctx.params.sync !== 'none') return undefined;
    const n = ctx.ranks;
    const partners = partnerRule(ctx.params.order, n, ctx.topology);
    const bytes = ctx.size;
    return {
      action: partners.action,
      opsPerRank: 2 * (n - 1) + 1,
      forEachOp(r, visit) {
        visit('copy', r, bytes, 0);
        for (let k = 1; k < n; k++) {
          visit('send', partners.send(r, k), bytes, 0);
          visit('recv', partners.recv(r, k), bytes, 0);
        }
      },
    };
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    if (ctx.params.buffers === 'inplace') return inPlace(newBuilder({ inPlace: true, expectedOps: 3 * n * n }), n);
    const partners = partnerRule(ctx.params.order, n, ctx.topology);
    const b = newBuilder({ expectedOps: 2 * n * n });
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    syncedSteps(
      b,
      n,
      ctx.params.sync as StepSync,
      (r, k) => ({ to: partners.send(r, k), from: partners.recv(r, k) }),
      (r) => b.copy(r, b.block(SEND, r), b.block(RECV, r)),
      (r, to, from) => b.sendrecv(r, to, b.block(SEND, to), from, b.block(RECV, from)),
    );
    return b.finish();
  },
});

/** Rank r's destination and source at step k (1 ≤ k < n), and how the rule moves with the rank (its symmetry declaration). */
interface PartnerRule {
  readonly action: RankAction;
  send(r: number, k: number): number;
  recv(r: number, k: number): number;
}

/** XOR (order=xor, or auto on a power-of-two rank count), coordinate shifts (order=coords) or shifts mod n. */
function partnerRule(order: string | number | boolean, n: number, topology: Topology): PartnerRule {
  if (order === 'xor' || (order === 'auto' && isPowerOfTwo(n))) return { action: 'xor', send: (r, k) => r ^ k, recv: (r, k) => r ^ k };
  if (order === 'coords') {
    const g = gridShape(topology) as GridShape;
    return { action: { translation: g.dims }, send: (r, k) => translate(g, r, k, 1), recv: (r, k) => translate(g, r, k, -1) };
  }
  return { action: 'rotation', send: (r, k) => (r + k) % n, recv: (r, k) => (r - k + n) % n };
}

/** Rank r moved by sign × (the coordinates of rank k), each axis mod its size (axis 0 fastest, as gridShape numbers ranks). */
function translate(g: GridShape, r: number, k: number, sign: 1 | -1): number {
  let out = 0;
  for (let axis = 0; axis < g.dims.length; axis++) {
    const size = g.dims[axis];
    const stride = g.stride[axis];
    const c = Math.floor(r / stride) % size;
    const d = Math.floor(k / stride) % size;
    out += ((c + sign * d + size) % size) * stride;
  }
  return out;
}

/** XOR partners exchange slot r^k in place through one temporary block (the slot is read by the eager send first). */
function inPlace(b: ScheduleBuilder, n: number) {
  const tmp = b.region(b.tmpBuffer('tmp', b.blockBytes), 0, b.blockBytes);
  for (let k = 1; k < n; k++) {
    for (let r = 0; r < n; r++) {
      const partner = r ^ k;
      b.send(r, partner, b.block(RECV, partner));
      b.recv(r, partner, tmp);
      b.copy(r, tmp, b.block(RECV, partner));
    }
  }
  return b.finish();
}
