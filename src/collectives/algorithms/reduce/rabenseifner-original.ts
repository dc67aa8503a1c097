/**
 * reduce and allreduce `rabenseifner-original`: Rabenseifner's own reduce and allreduce for long buffers
 * (SimGrid SMPI's `rab`, reduce-rab.cpp, MPI_I_anyReduce, which SMPI 3.32 builds with REDUCE_NEW_ALWAYS: this
 * protocol at every count). With x = the power of two at or below n and r = n − x:
 * - fold: ranks below 2r pair up; the even one sends the upper half of its buffer and receives the lower half
 *   (a sendrecv), the odd one the reverse; each reduces its half, the odd one sends its reduced upper half to
 *   the even one and sits out. The even ones and the ranks from 2r on are new ranks 0 .. x − 1.
 * - halving, nearest partner first: at step i new rank v keeps the lower part of its range when bit i of v is
 *   0 (floor of half the elements), the upper part otherwise, and swaps the other part with v XOR 2^i.
 * - reduce: the steps undone from the farthest partner, every new rank taking part: the one that differs from
 *   the root's new rank in that bit sends its part, the other receives it (only the root's path carries the
 *   result). A root that sat out first receives new rank 0's part from rank 0 and stands in for it.
 * - allreduce: the steps undone as sendrecvs (recursive doubling), then every even rank below 2r sends the
 *   whole result to the odd one.
 * smp=true: init_smp's messages first (the impi reduce selector's rab, after it builds the SMP communicators).
 */
import { registerAlgorithm, type AlgorithmContext } from '../../registry.js';
import { RECV, SEND, type Schedule, type ScheduleBuilder } from '../../schedule.js';
import { unitOf } from '../common.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

/** A rank's part at each halving step: [start, count] in elements of what it keeps, and of what it gives. */
interface Steps {
  readonly keep: Array<[number, number]>;
  readonly give: Array<[number, number]>;
}

/** The parts new rank v keeps and gives at each of the n halving steps over `count` elements. */
function halvingSteps(v: number, steps: number, count: number): Steps {
  const keep: Array<[number, number]> = [];
  const give: Array<[number, number]> = [];
  let start = 0;
  let len = count;
  for (let i = 0, base = 1; i < steps; i++, base *= 2) {
    const even: [number, number] = [start, Math.floor(len / 2)];
    const odd: [number, number] = [start + even[1], len - even[1]];
    const lower = Math.floor(v / base) % 2 === 0;
    keep.push(lower ? even : odd);
    give.push(lower ? odd : even);
    [start, len] = lower ? even : odd;
  }
  return { keep, give };
}

function build(ctx: AlgorithmContext, b: ScheduleBuilder): Schedule {
  const n = ctx.ranks;
  const all = ctx.collective === 'allreduce';
  const unit = unitOf(ctx);
  const count = Math.floor(ctx.size / unit);
  if (ctx.params.smp === true) smpiInitSmp(b, n);
  const acc = b.tmpBuffer('acc', ctx.size);
  const tmp = b.tmpBuffer('tmp', ctx.size);
  const part = (buf: number, [start, len]: readonly [number, number]) => b.region(buf, start * unit, len * unit);
  const whole: [number, number] = [0, count];
  if (n === 1) {
    b.copy(0, part(SEND, whole), part(RECV, whole));
    return b.finish();
  }
  let steps = 0;
  let x = 1;
  while (2 * x <= n) {
    steps++;
    x *= 2;
  }
  const r = n - x;
  const lowHalf: [number, number] = [0, Math.floor(count / 2)];
  const highHalf: [number, number] = [lowHalf[1], count - lowHalf[1]];
  for (let rank = 0; rank < n; rank++) b.copy(rank, part(SEND, whole), part(acc, whole));
  // Fold (tags 1220, 1221, 1223 in SMPI).
  for (let rank = 0; rank < 2 * r; rank++) {
    if (rank % 2 === 0) {
      b.sendrecv(rank, rank + 1, part(SEND, highHalf), rank + 1, part(tmp, lowHalf), 40);
      b.reduce(rank, part(tmp, lowHalf), part(acc, lowHalf));
      b.recv(rank, rank + 1, part(acc, highHalf), 41);
    } else {
      b.sendrecv(rank, rank - 1, part(SEND, lowHalf), rank - 1, part(tmp, highHalf), 40);
      b.reduce(rank, part(tmp, highHalf), part(acc, highHalf));
      b.send(rank, rank - 1, part(acc, highHalf), 41);
    }
  }
  const oldRank = (v: number) => (v < r ? 2 * v : v + r);
  // Halving, nearest partner first.
  const path = Array.from({ length: x }, (_, v) => halvingSteps(v, steps, count));
  for (let v = 0; v < x; v++) {
    const rank = oldRank(v);
    for (let i = 0, base = 1; i < steps; i++, base *= 2) {
      const partner = oldRank(v ^ base);
      b.sendrecv(rank, partner, part(acc, path[v].give[i]), partner, part(tmp, path[v].keep[i]), 42);
      b.reduce(rank, part(tmp, path[v].keep[i]), part(acc, path[v].keep[i]));
    }
  }
  if (all) {
    for (let v = 0; v < x; v++) {
      const rank = oldRank(v);
      for (let i = steps - 1, base = x / 2; i >= 0; i--, base /= 2) {
        const partner = oldRank(v ^ base);
        b.sendrecv(rank, partner, part(acc, path[v].keep[i]), partner, part(acc, path[v].give[i]), 43);
      }
      b.copy(rank, part(acc, whole), part(RECV, whole));
    }
    for (let rank = 0; rank < 2 * r; rank += 2) {
      b.send(rank, rank + 1, part(RECV, whole), 44);
      b.recv(rank + 1, rank, part(RECV, whole), 44);
    }
    return b.finish();
  }
  const root = ctx.root;
  // The root's new rank; a root that sat out stands in for new rank 0, whose part rank 0 sends it first.
  const rootSatOut = root < 2 * r && root % 2 === 1;
  const newRoot = rootSatOut ? 0 : root < 2 * r ? root / 2 : root - r;
  const gatherRank = (v: number) => (v === newRoot ? root : oldRank(v));
  const last = path[0].keep[steps - 1] ?? whole;
  if (rootSatOut) {
    b.send(0, root, part(acc, last), 45);
    b.recv(root, 0, part(RECV, last), 45);
  } else {
    b.copy(root, part(acc, path[newRoot].keep[steps - 1] ?? whole), part(RECV, path[newRoot].keep[steps - 1] ?? whole));
  }
  for (let v = 0; v < x; v++) {
    const rank = gatherRank(v);
    for (let i = steps - 1, base = x / 2; i >= 0; i--, base /= 2) {
      const partner = gatherRank(v ^ base);
      if ((v & base) !== (newRoot & base)) b.send(rank, partner, part(acc, path[v].keep[i]), 46);
      else b.recv(rank, partner, part(rank === root ? RECV : acc, path[v].give[i]), 46);
    }
  }
  return b.finish();
}

for (const collective of ['reduce', 'allreduce'] as const) {
  registerAlgorithm({
    name: 'rabenseifner-original',
    collective,
    description: "Rabenseifner's own protocol: a fold that swaps halves, halving from the nearest partner, the steps undone (SMPI rab)",
    source: 'Rabenseifner (1997-99); SimGrid SMPI rab (reduce-rab.cpp)',
    supportsText: 'any rank count and topology',
    supports: () => undefined,
    params: [smpParam("impi reduce selector's rab")],
    build: (ctx, newBuilder) => build(ctx, newBuilder()),
  });
}
