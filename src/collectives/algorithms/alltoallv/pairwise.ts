/**
 * alltoallv `pairwise`: n−1 exchange steps, as alltoall `pairwise`: partner rank XOR k for a power of
 * two (SimGrid SMPI's alltoallv `pair` and, for powers of two, `ring`), else send to rank+k and
 * receive from rank−k (SMPI's `ring` otherwise). Each block has its own size. `sync` (step-sync.ts):
 * SMPI's alltoallv pair_*_barrier (order=xor) and ring_*_barrier (order=shift: unlike its `ring`, SMPI's
 * ring barrier variants shift on a power of two too).
 */
import { isPowerOfTwo, registerAlgorithm } from '../../registry.js';
import { RECV, SEND, alltoallvLayout } from '../../schedule.js';
import { SYNC_PARAM, syncedSteps, type StepSync } from '../alltoall/step-sync.js';

registerAlgorithm({
  name: 'pairwise',
  collective: 'alltoallv',
  description: 'n-1 exchange steps: partner = rank XOR step (powers of two) or shift by step (otherwise)',
  supportsText: 'any rank count and topology (order=xor: powers of two)',
  source: 'classic (MPI); SMPI pair and ring',
  params: [{ key: 'order', kind: 'choice', choices: ['auto', 'xor', 'shift'], default: 'auto', description: 'partner rule; auto = xor for powers of two' }, SYNC_PARAM],
  supports: (ctx) => (ctx.params.order === 'xor' && !isPowerOfTwo(ctx.ranks) ? `order=xor needs a power-of-two rank count, got ${ctx.ranks}` : undefined),
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const b = newBuilder({ expectedOps: 2 * n * n });
    const part = b.parts[0];
    const { sdispl, rdispl } = alltoallvLayout(part);
    const sizes = part.sizes!;
    const sendBlock = (i: number, j: number): number => b.region(SEND, sdispl[i * n + j], sizes[i * n + j]);
    const recvBlock = (i: number, j: number): number => b.region(RECV, rdispl[i * n + j], sizes[i * n + j]);
    const xor = ctx.params.order === 'xor' || (ctx.params.order === 'auto' && isPowerOfTwo(n));
    syncedSteps(
      b,
      n,
      ctx.params.sync as StepSync,
      (r, k) => ({ to: xor ? r ^ k : (r + k) % n, from: xor ? r ^ k : (r - k + n) % n }),
      (r) => b.copy(r, sendBlock(r, r), recvBlock(r, r)),
      (r, to, from) => b.sendrecv(r, to, sendBlock(r, to), from, recvBlock(from, r)),
    );
    return b.finish();
  },
});
