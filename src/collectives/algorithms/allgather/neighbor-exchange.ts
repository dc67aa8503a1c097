/**
 * allgather `neighbor-exchange` (Chen et al., Open MPI's tuned allgather "neighbor", SimGrid SMPI's
 * `ompi_neighborexchange`, allgather-ompi-neighborexchange.cpp): n/2 sendrecv steps with the two ring
 * neighbours in turn. Even rank r pairs first with r + 1, odd rank r with r − 1; step 0 swaps the
 * rank's own block, every later step forwards the pair of blocks (2j, 2j + 1) received in the step
 * before and receives the next pair, alternating the neighbour. Even rank counts only (SMPI then runs
 * its ring instead).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { mod } from '../common.js';

registerAlgorithm({
  name: 'neighbor-exchange',
  collective: 'allgather',
  description: 'n/2 sendrecv steps alternating between the two ring neighbours, two blocks per step after the first (Open MPI neighbor exchange)',
  source: 'Chen et al. 2005; Open MPI tuned / SimGrid SMPI ompi_neighborexchange',
  supportsText: 'an even rank count (SMPI runs its ring, smpi:ring, for an odd one)',
  params: [],
  supports: (ctx) => (ctx.ranks % 2 ? `${ctx.ranks} ranks is odd` : undefined),
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder();
    for (let r = 0; r < n; r++) {
      b.copy(r, b.region(SEND, 0, ctx.size), b.block(RECV, r));
      if (n === 1) continue;
      const even = r % 2 === 0;
      const neighbor = even ? [mod(r + 1, n), mod(r - 1, n)] : [mod(r - 1, n), mod(r + 1, n)];
      const offset = even ? [2, -2] : [-2, 2];
      // The first block of the pair last received from each neighbour (pairs start at even blocks).
      const recvFrom = even ? [r, r] : [neighbor[0], neighbor[0]];
      b.sendrecv(r, neighbor[0], b.block(RECV, r), neighbor[0], b.block(RECV, neighbor[0]));
      let sendFrom = even ? r : recvFrom[0];
      for (let i = 1; i < n / 2; i++) {
        const p = i % 2;
        recvFrom[p] = mod(recvFrom[p] + offset[p], n);
        b.sendrecv(r, neighbor[p], b.block(RECV, sendFrom, 2), neighbor[p], b.block(RECV, recvFrom[p], 2));
        sendFrom = recvFrom[p];
      }
    }
    return b.finish();
  },
});
