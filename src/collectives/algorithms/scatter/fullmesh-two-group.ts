/**
 * scatter and gather `fullmesh-two-group` (seed 001, 図29, spec/seed001_fullmesh.md §2.8):
 * the ranks form two program groups (two sub-communicators: the first and second half), each
 * running its own scatter (or gather) at the same time. Each block is split in two: one half over
 * the direct link, the other over a 1-hop link through the rank at the same position in the other
 * group (付記13: 1-hop links via nodes of another group), so a large scatter is 2× faster.
 * Roots: local rank (root mod N/2) of each group. Which group-B node relays which piece is only in
 * 図29; this pairing gives every relay node exactly one piece per collective.
 */
import type { AlgorithmContext } from '../../registry.js';
import { registerAlgorithm } from '../../registry.js';
import { RECV, ScheduleBuilder, SEND, Schedule } from '../../schedule.js';
import { fullMeshRefusal, pieceRegion, viaHint } from '../fullmesh.js';

/** Ranks in the first group: `first`, or half of an even rank count. */
function firstSize(ctx: AlgorithmContext): number {
  return (ctx.params.first as number) || ctx.ranks / 2;
}

function refusal(ctx: AlgorithmContext): string | undefined {
  const first = firstSize(ctx);
  if (!Number.isInteger(first)) return `an even rank count, or first=G for two groups of G and N−G, got N = ${ctx.ranks}`;
  if (ctx.ranks < 4 || first < 2 || ctx.ranks - first < 2) return `two groups of 2 or more ranks (first = ${first} of ${ctx.ranks})`;
  if (ctx.size < 2) return `size ${ctx.size} B cannot be split into 2 pieces`;
  return fullMeshRefusal(ctx.topology);
}

function build(ctx: AlgorithmContext, newBuilder: (o?: object) => ScheduleBuilder): Schedule {
  const first = firstSize(ctx);
  const B = ctx.size;
  const groups = [Array.from({ length: first }, (_, i) => i), Array.from({ length: ctx.ranks - first }, (_, i) => first + i)];
  const rootOf = (ranks: readonly number[]): number => ranks[ctx.root % ranks.length];
  const scatter = ctx.collective === 'scatter';
  const b = newBuilder({ parts: groups.map((ranks) => ({ collective: ctx.collective, ranks, size: B, root: rootOf(ranks) })), expectedOps: 8 * ctx.ranks });
  const direct = b.hint('direct');
  for (const [g, ranks] of groups.entries()) {
    const root = rootOf(ranks);
    const other = groups[1 - g];
    ranks.forEach((r, i) => {
      if (r === root) {
        b.copy(root, scatter ? b.block(SEND, i) : b.block(SEND, 0), scatter ? b.block(RECV, 0) : b.block(RECV, i));
        return;
      }
      // The rank at the same position in the other group, cyclically when the groups differ in size.
      const partner = other[i % other.length];
      for (let c = 0; c < 2; c++) {
        const hint = c === 0 ? direct : viaHint(b, ctx.topology, partner);
        if (scatter) {
          b.send(root, r, pieceRegion(b, SEND, i * B, B, 2, c), c, 0, hint);
          b.recv(r, root, pieceRegion(b, RECV, 0, B, 2, c), c);
        } else {
          b.send(r, root, pieceRegion(b, SEND, 0, B, 2, c), c, 0, hint);
          b.recv(root, r, pieceRegion(b, RECV, i * B, B, 2, c), c);
        }
      }
    });
  }
  return b.finish();
}

/** Registers the algorithm for scatter (here) or gather (src/collectives/algorithms/gather/). */
export function registerTwoGroup(collective: 'scatter' | 'gather'): void {
  registerAlgorithm({
    name: 'fullmesh-two-group',
    collective,
    description: `seed 001 図29: two program groups each ${collective} at once, every block half direct, half via the other group`,
    supportsText: 'full mesh of ≥ 4 ranks: two groups of N/2, or first=G and N−G (each ≥ 2)',
    source: 'seed 001 (JP 2020-046713, 3rd embodiment)',
    params: [{ key: 'first', kind: 'int', default: 0, min: 0, description: 'ranks in the first group; 0 = N/2 (図29: 4 and 4)' }],
    supports: refusal,
    build: (ctx, nb) => build(ctx, nb),
  });
}

registerTwoGroup('scatter');
