/**
 * reduce `knomial`: MVAPICH2's k-nomial reduce (SimGrid SMPI's `mvapich2_knomial`, reduce-mvapich-knomial.cpp,
 * radix 4 unless the mvapich2 selector set it). Over relative ranks v = rank − root, v sends to v with its
 * lowest non-zero base-k digit cleared; its children are v + m·j (j = 1 .. k − 1) for the powers m of k below
 * that digit's. Each rank posts a receive from every child at once, reduces them into a copy of its own
 * buffer, then sends the result to its parent (an isend and its wait). MVAPICH2 lists the children from the
 * largest power down and posts the list backwards: nearest first, j descending. SMPI reduces each buffer as
 * it arrives (waitany); here after all have arrived, which times the same while computation is not timed.
 * smp=true: init_smp's messages first: the mvapich2 selector's two-level reduce on one rank per host, whose
 * inter-leader function it sets to this (its tables' k-degree is 4 throughout), and the impi selector's.
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { smpiInitSmp, smpParam } from '../smpi-init-smp.js';

/** Parent and children (in SMPI's posting order) of relative rank v in the k-nomial tree over n. */
export function knomialReduceTree(v: number, n: number, radix: number): { parent: number; children: number[] } {
  let mask = 1;
  let parent = -1;
  while (mask < n) {
    if (v % (radix * mask) !== 0) {
      parent = Math.floor(v / (radix * mask)) * radix * mask;
      break;
    }
    mask *= radix;
  }
  mask = Math.floor(mask / radix);
  // MVAPICH2 lists them from the largest mask down; it posts the list backwards.
  const listed: number[] = [];
  for (; mask > 0; mask = Math.floor(mask / radix)) {
    for (let j = 1; j < radix; j++) if (v + mask * j < n) listed.push(v + mask * j);
  }
  return { parent, children: listed.reverse() };
}

registerAlgorithm({
  name: 'knomial',
  collective: 'reduce',
  description: "MVAPICH2's k-nomial reduce: every child's buffer received at once, reduced, sent up (SMPI mvapich2_knomial)",
  source: 'MVAPICH2 k-nomial reduce; SimGrid SMPI mvapich2_knomial',
  supportsText: 'any rank count and topology',
  supports: () => undefined,
  params: [
    { key: 'radix', kind: 'int', default: 4, min: 2, max: 64, description: 'tree radix k (SMPI mvapich2_knomial: 4)' },
    smpParam("mvapich2 and impi selectors' reduce (mvapich2_two_level with the k-nomial inter-leader reduce)"),
  ],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const radix = ctx.params.radix as number;
    const b = newBuilder();
    if (ctx.params.smp === true) smpiInitSmp(b, n);
    const acc = b.tmpBuffer('acc', ctx.size);
    // The root has the most children: one receive slot each.
    const slots = b.tmpBuffer('slots', Math.max(1, knomialReduceTree(0, n, radix).children.length) * ctx.size);
    for (let v = 0; v < n; v++) {
      const r = (v + ctx.root) % n;
      const real = (u: number) => (u + ctx.root) % n;
      const { parent, children } = knomialReduceTree(v, n, radix);
      const mine = b.region(parent < 0 ? RECV : acc, 0, ctx.size);
      b.copy(r, b.region(SEND, 0, ctx.size), mine);
      const slot = (i: number) => b.region(slots, i * ctx.size, ctx.size);
      children.forEach((c, i) => b.irecv(r, real(c), slot(i)));
      if (children.length > 0) b.waitall(r);
      children.forEach((_, i) => b.reduce(r, slot(i), mine));
      if (parent >= 0) {
        b.isend(r, real(parent), mine);
        b.waitall(r);
      }
    }
    return b.finish();
  },
});
