/**
 * barrier `double-ring`: Open MPI's double ring, SimGrid SMPI's `ompi_doublering` (barrier-ompi.cpp): a
 * zero-byte token goes twice round the ring 0 -> 1 -> ... -> n − 1 -> 0. Each round, a rank other than 0
 * receives from its left neighbour, then sends to its right one; rank 0 sends first, then receives from
 * rank n − 1.
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV } from '../../schedule.js';
import { mod, UNRESTRICTED } from '../common.js';

registerAlgorithm({
  name: 'double-ring',
  collective: 'barrier',
  description: 'a zero-byte token twice round the ring from rank 0 (Open MPI double ring, SMPI ompi_doublering)',
  source: 'Open MPI tuned barrier double ring; SimGrid SMPI ompi_doublering',
  ...UNRESTRICTED,
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    const none = b.region(RECV, 0, 0);
    if (n === 1) return b.finish();
    for (let r = 0; r < n; r++) {
      for (let round = 1; round <= 2; round++) {
        if (r > 0) b.recv(r, r - 1, none, round);
        b.send(r, mod(r + 1, n), none, round);
        if (r === 0) b.recv(r, n - 1, none, round);
      }
    }
    return b.finish();
  },
});
