/**
 * reduce `chain`: the ranks after the root form `fanout` chains that start at the root's children; each
 * rank reduces what comes up its chain with its own data and passes it on, segment by segment.
 * - recvs=double-buffered: Open MPI's generic segmented reduce (smpi_coll_tuned_ompi_reduce_generic, the
 *   schedule of binomial-pipelined) over Open MPI's chain (ompi_coll_tuned_topo_build_chain): SimGrid SMPI's
 *   `ompi_pipeline` (one chain; segment=0: Open MPI's choice of 1, 32 or 64 KiB by size and rank count) and
 *   `ompi_chain` (fanout=0: half the rank count; 64 KiB segments), reduce-ompi.cpp.
 * - recvs=preposted, fanout=1: SMPI's `NTSL` (reduce-NTSL.cpp): rank r receives from r + 1 and sends to
 *   r − 1 (root − 1 starts, the root ends), every segment's receive posted at once, each segment reduced
 *   and isent as it arrives, then a waitall; `segment`-byte segments cut on whole elements, the remainder
 *   past the last whole segment reduced by SMPI's default reduce (reduce `linear`) afterwards; a buffer of at
 *   most one segment goes with blocking receives and sends.
 */
import { registerAlgorithm, type AlgorithmContext } from '../../registry.js';
import { RECV, SEND, type Schedule, type ScheduleBuilder } from '../../schedule.js';
import { rootRelative, unitOf } from '../common.js';
import { linearReduce } from '../reduction.js';
import { ompiSegmentBounds, pipelinedReduce, type ReduceTreeNode } from './binomial-pipelined.js';

/** Open MPI's chain (ompi_coll_tuned_topo_build_chain) of `fanout` chains over n ranks from `root`: each node's parent and children in order. */
export function ompiChainTree(fanout: number, n: number, root: number): ReduceTreeNode[] {
  const real = rootRelative(root, n);
  const f = Math.max(1, Math.min(fanout, n - 1));
  // Chains of maxLen ranks; past `mark` chains they are one shorter (Open MPI's maxchainlen and mark).
  const maxLen = Math.ceil((n - 1) / f);
  const mark = (n - 1) % f !== 0 ? (n - 1) % f : f + 1;
  const heads: number[] = [];
  for (let c = 0; c < f; c++) heads.push(c < mark ? 1 + c * maxLen : mark * maxLen + 1 + (c - mark) * (maxLen - 1));
  const nodes: ReduceTreeNode[] = [];
  for (let s = 0; s < n; s++) {
    if (s === 0) {
      nodes.push({ rank: real(0), parent: -1, children: n > 1 ? heads.filter((h) => h < n).map((h) => ({ rank: real(h) })) : [] });
      continue;
    }
    const c = s - 1 < mark * maxLen ? Math.floor((s - 1) / maxLen) : mark + Math.floor((s - 1 - mark * maxLen) / (maxLen - 1));
    const head = heads[c];
    const len = c < mark ? maxLen : maxLen - 1;
    const last = s === head + len - 1 || s + 1 >= n;
    nodes.push({ rank: real(s), parent: real(s === head ? 0 : s - 1), children: last ? [] : [{ rank: real(s + 1) }] });
  }
  return nodes;
}

/** Open MPI's segment for its pipeline reduce (segment=0): 1, 32 or 64 KiB by size and rank count (reduce__ompi_pipeline). */
function pipelineSegment(ctx: AlgorithmContext): number {
  const segment = ctx.params.segment as number;
  if (segment !== 0) return segment;
  const n = ctx.ranks;
  if (n > (0.041 / 1024) * ctx.size + 9.7128) return 1024;
  return n > (0.0033 / 1024) * ctx.size + 1.6761 ? 32768 : 65536;
}

/** SMPI's NTSL reduce (see the header): the chain root − 1 → ... → root + 1 → root with every receive posted at once. */
function buildNtsl(ctx: AlgorithmContext, b: ScheduleBuilder): Schedule {
  const n = ctx.ranks;
  const root = ctx.root;
  const unit = unitOf(ctx);
  const count = ctx.size / unit;
  const segCount = Math.max(1, Math.floor((ctx.params.segment as number) / unit));
  const pipelined = count > segCount;
  const pipes = pipelined ? Math.floor(count / segCount) : 1;
  const segBytes = pipelined ? segCount * unit : ctx.size;
  const covered = pipes * segBytes;
  const acc = b.tmpBuffer('acc', ctx.size);
  const incoming = b.tmpBuffer('incoming', ctx.size);
  const accumOf = (r: number) => (r === root ? RECV : acc);
  const seg = (buf: number, i: number) => b.region(buf, i * segBytes, segBytes);
  for (let r = 0; r < n; r++) b.copy(r, b.region(SEND, 0, covered), b.region(accumOf(r), 0, covered));
  if (n > 1) {
    const last = (root - 1 + n) % n;
    for (let r = 0; r < n; r++) {
      const to = (r - 1 + n) % n;
      const from = (r + 1) % n;
      const tag = (i: number) => (pipelined ? 10 + i : 10);
      if (!pipelined) {
        if (r !== last) {
          b.recv(r, from, seg(incoming, 0), tag(0));
          b.reduce(r, seg(incoming, 0), seg(accumOf(r), 0));
        }
        if (r !== root) b.send(r, to, seg(accumOf(r), 0), tag(0));
        continue;
      }
      if (r === last) {
        for (let i = 0; i < pipes; i++) b.isend(r, to, seg(acc, i), tag(i));
        b.waitall(r);
        continue;
      }
      const recvs: number[] = [];
      for (let i = 0; i < pipes; i++) recvs.push(b.irecv(r, from, seg(incoming, i), tag(i)));
      const sends: number[] = [];
      for (let i = 0; i < pipes; i++) {
        b.wait(r, recvs[i]);
        b.reduce(r, seg(incoming, i), seg(accumOf(r), i));
        if (r !== root) sends.push(b.isend(r, to, seg(acc, i), tag(i)));
      }
      for (const s of sends) b.wait(r, s);
    }
  }
  if (covered < ctx.size) {
    // SMPI's default reduce of the remainder (its ireduce: reduce `linear`).
    const rest = ctx.size - covered;
    linearReduce(b, n, root, rest, b.tmpBuffer('slots', n * rest), b.region(RECV, covered, rest), covered);
  }
  return b.finish();
}

registerAlgorithm({
  name: 'chain',
  collective: 'reduce',
  description: "pipelined reduce up chains from the root: Open MPI's ompi_pipeline (one chain) and ompi_chain (fanout=0), or SMPI's NTSL (recvs=preposted)",
  source: 'Open MPI tuned reduce (chain, pipeline); SimGrid SMPI ompi_chain, ompi_pipeline, NTSL',
  supportsText: 'any rank count and topology; at most 2^20 segments; recvs=preposted with fanout=1',
  params: [
    { key: 'fanout', kind: 'int', default: 1, min: 0, max: 1024, description: 'chains from the root; 0: half the rank count (Open MPI ompi_chain)' },
    {
      key: 'segment',
      kind: 'int',
      default: 0,
      min: 0,
      max: 2 ** 40,
      description: "segment bytes; 0: Open MPI's pipeline choice (1, 32 or 64 KiB by size and rank count; SMPI ompi_pipeline)",
    },
    {
      key: 'recvs',
      kind: 'choice',
      choices: ['double-buffered', 'preposted'],
      default: 'double-buffered',
      description: "double-buffered: Open MPI's generic reduce (the next segment's receive posted before this one is reduced); preposted: every segment's receive posted at once (SMPI NTSL)",
    },
  ],
  supports(ctx) {
    const segment = ctx.params.recvs === 'preposted' ? ctx.params.segment as number : pipelineSegment(ctx);
    if (ctx.params.recvs === 'preposted' && ctx.params.fanout !== 1) return `fanout=1 with recvs=preposted (SMPI NTSL is one chain), got fanout=${String(ctx.params.fanout)}`;
    if (ctx.params.recvs === 'preposted' && segment < unitOf(ctx)) return `a segment of at least one ${ctx.dtype} element (${unitOf(ctx)} B) with recvs=preposted, got segment=${segment}`;
    return ctx.size / segment > 1 << 20 ? `at most 2^20 segments, got size ${ctx.size} / segment ${segment}` : undefined;
  },
  build(ctx, newBuilder) {
    if (ctx.params.recvs === 'preposted') return buildNtsl(ctx, newBuilder());
    const fanout = (ctx.params.fanout as number) || Math.floor(ctx.ranks / 2);
    return pipelinedReduce(ctx, newBuilder, ompiChainTree(fanout, ctx.ranks, ctx.root), ompiSegmentBounds(ctx, pipelineSegment(ctx)));
  },
});
