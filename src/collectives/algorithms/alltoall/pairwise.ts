/**
 * alltoall `pairwise`: n-1 steps; in step k rank r exchanges with one partner (classic, MPI).
 * Partner r XOR k when n is a power of two (each step is a perfect matching), else a shift:
 * send to r+k, receive from r-k.
 */
import { isPowerOfTwo, registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';

registerAlgorithm({
  name: 'pairwise',
  collective: 'alltoall',
  description: 'n-1 exchange steps: partner = rank XOR step (powers of two) or shift by step (otherwise)',
  supportsText: 'any rank count and topology',
  source: 'classic (MPI)',
  params: [{ key: 'order', kind: 'choice', choices: ['auto', 'xor', 'shift'], default: 'auto', description: 'partner rule; auto = xor for powers of two' }],
  supports: (ctx) => (ctx.params.order === 'xor' && !isPowerOfTwo(ctx.ranks) ? `order=xor needs a power-of-two rank count, got ${ctx.ranks}` : undefined),
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const xor = ctx.params.order === 'xor' || (ctx.params.order === 'auto' && isPowerOfTwo(n));
    const b = newBuilder({ expectedOps: 2 * n * n });
    for (let r = 0; r < n; r++) b.copy(r, b.block(SEND, r), b.block(RECV, r));
    for (let k = 1; k < n; k++) {
      for (let r = 0; r < n; r++) {
        const to = xor ? r ^ k : (r + k) % n;
        const from = xor ? r ^ k : (r - k + n) % n;
        b.sendrecv(r, to, b.block(SEND, to), from, b.block(RECV, from));
      }
    }
    return b.finish();
  },
});
