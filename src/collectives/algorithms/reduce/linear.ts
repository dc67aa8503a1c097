/**
 * reduce `linear`: every rank sends its buffer straight to the root. recvs=preposted: the root has every
 * receive posted at once and reduces them in rank order (SimGrid SMPI's default reduce, its ireduce,
 * smpi_nbc_impl.cpp). recvs=descending: the root receives one buffer at a time with blocking receives,
 * rank n − 1's into its result first, then ranks n − 2 down to 0 into one temporary, reducing each as it
 * arrives (SMPI's `flat_tree`, reduce-flat-tree.cpp, and `ompi_basic_linear`, reduce-ompi.cpp: the same messages).
 */
import { registerAlgorithm } from '../../registry.js';
import { RECV, SEND } from '../../schedule.js';
import { linearReduce } from '../reduction.js';

registerAlgorithm({
  name: 'linear',
  collective: 'reduce',
  description: 'every rank sends its whole buffer to the root; the root reduces them (SMPI default: ireduce)',
  source: 'classic; SimGrid SMPI default reduce (ireduce), flat_tree and ompi_basic_linear (recvs=descending)',
  supportsText: 'any rank count and topology',
  supports: () => undefined,
  params: [
    {
      key: 'recvs',
      kind: 'choice',
      choices: ['preposted', 'descending'],
      default: 'preposted',
      description: 'preposted: every receive posted at once, reduced in rank order (SMPI ireduce); descending: blocking receives from rank n − 1 down to 0 (SMPI flat_tree, ompi_basic_linear)',
    },
  ],
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const root = ctx.root;
    const b = newBuilder();
    const result = b.region(RECV, 0, ctx.size);
    if (ctx.params.recvs !== 'descending') {
      // One receive slot per sender: all n − 1 receives are posted before any is reduced.
      const slots = b.tmpBuffer('slots', n * ctx.size);
      linearReduce(b, n, root, ctx.size, slots, result);
      return b.finish();
    }
    const send = b.region(SEND, 0, ctx.size);
    const incoming = b.region(b.tmpBuffer('incoming', ctx.size), 0, ctx.size);
    for (let r = 0; r < n; r++) if (r !== root) b.send(r, root, send);
    if (root === n - 1) b.copy(root, send, result);
    else b.recv(root, n - 1, result);
    for (let r = n - 2; r >= 0; r--) {
      if (r === root) {
        b.reduce(root, send, result);
        continue;
      }
      b.recv(root, r, incoming);
      b.reduce(root, incoming, result);
    }
    return b.finish();
  },
});
