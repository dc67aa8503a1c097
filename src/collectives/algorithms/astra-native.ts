/**
 * `astra`: ASTRA-sim's native collectives on a multi-dimensional network (astra-sim @ 518bd513,
 * system/Sys.cc `generate_collective`, the `ring` implementation on every dimension), so that a
 * Chakra trace timed with ASTRA-sim's network and system files runs the collective ASTRA-sim runs.
 *
 * The buffer is cut into `splits` chunks (ASTRA-sim's preferred-dataset-splits); each chunk is a
 * sequence of phases, one per dimension of more than one NPU, each a ring over the NPUs that differ
 * only in that dimension (coordinate order):
 * - allreduce, opt=localBWAware (ASTRA-sim's collective-optimization): reduce-scatter along
 *   dimensions 0 … k−2, allreduce along the last, allgather along k−2 … 0; opt=baseline: an
 *   allreduce along every dimension in turn, on the whole chunk;
 * - reduce-scatter: along dimensions 0 … k−1; allgather: along k−1 … 0 (ASTRA-sim reverses them).
 * Chunk c runs on stream c mod `active` (active-chunks-per-dimension): at most `active` chunks are
 * in flight, the next one starting when one finishes. The dimensions are the topology's: an
 * `astra:` network's, or a torus's or mesh's axes.
 *
 * Data: the blocks stay where Meshwork's postconditions want them. With dimension 0 fastest in the
 * rank number, the segment of ring position v in the phase along dimension j is the set of blocks
 * {r : r_d = a_d for d < j, r_j = v} (a the rank's address), so after the reduce-scatter phases
 * rank a holds block a, and the allgather phases undo them in reverse.
 */
import { gridShape } from './alltoall/axis-phases.js';
import { registerAlgorithm, type Algorithm, type AlgorithmContext } from '../registry.js';
import { RECV, SEND, type ScheduleBuilder } from '../schedule.js';
import type { Topology } from '../../topology/graph.js';
import { unitOf } from './common.js';
import { cut, ringAllgatherOver, ringReduceScatterOver } from './library/layout.js';
import { ringRelayOver } from './alltoall/ring-relay.js';
import { maxOf } from '../../util/arrays.js';

/** The dimension sizes (dimension 0 fastest in the rank number) the collective runs along, or why there are none. */
export function rankDimensions(topology: Topology): readonly number[] | string {
  const declared = topology.family === 'astra' ? (topology.params.dims as readonly number[] | undefined) : undefined;
  if (declared) {
    for (let r = 0; r < topology.numEndpoints; r++) if (topology.endpoints[r] !== r) return 'ranks numbered as the NPUs (no --mapping)';
    return declared;
  }
  const grid = gridShape(topology);
  return typeof grid === 'string' ? `an astra: network, or ${grid}` : grid.dims;
}

interface Geometry {
  readonly dims: readonly number[];
  /** stride[d] = product of dims[0..d-1]; stride[k] = ranks. */
  readonly stride: readonly number[];
  readonly ranks: number;
}

function geometryOf(ctx: AlgorithmContext): Geometry {
  const dims = rankDimensions(ctx.topology) as readonly number[];
  const stride = [1];
  for (const n of dims) stride.push(stride[stride.length - 1] * n);
  return { dims, stride, ranks: ctx.ranks };
}

const coordinate = (g: Geometry, rank: number, d: number): number => Math.floor(rank / g.stride[d]) % g.dims[d];

/**
 * The blocks of ring position v in the phase along dimension j of a rank `a`'s group:
 * {r : r_d = a_d for d < j (all of them when `scattered` is false), r_j = v}, ascending.
 */
function segmentBlocks(g: Geometry, a: number, j: number, v: number, scattered: boolean): number[] {
  const blocks: number[] = [];
  const lower = g.stride[j];
  const upper = g.stride[j + 1];
  for (let high = 0; high < g.ranks; high += upper) {
    if (scattered) blocks.push(high + v * lower + (a % lower));
    else for (let l = 0; l < lower; l++) blocks.push(high + v * lower + l);
  }
  return blocks;
}

/** Where block r of chunk c lies in the working buffer: [offset, bytes). */
type BlockPlace = (c: number, r: number) => readonly [number, number];

/** A region of the listed blocks, adjacent ones merged into one extent. */
function blocksRegion(b: ScheduleBuilder, buf: number, blocks: readonly number[], place: (r: number) => readonly [number, number]): number {
  const extents: Array<[number, number, number]> = [];
  for (const r of blocks) {
    const [offset, bytes] = place(r);
    const last = extents[extents.length - 1];
    if (last && last[1] + last[2] === offset) last[2] += bytes;
    else extents.push([buf, offset, bytes]);
  }
  return b.extents(extents);
}

type PhaseKind = 'reduce-scatter' | 'allgather' | 'allreduce' | 'relay';

/** The phases of one chunk: [dimension, kind, whether earlier phases scattered the data]. */
function phasesOf(collective: string, dims: readonly number[], opt: string): Array<[number, PhaseKind, boolean]> {
  const active = dims.map((n, d) => (n > 1 ? d : -1)).filter((d) => d >= 0);
  if (collective === 'reduce-scatter') return active.map((d) => [d, 'reduce-scatter', true]);
  if (collective === 'alltoall') return active.map((d) => [d, 'relay', false]);
  if (collective === 'allgather') return [...active].reverse().map((d) => [d, 'allgather', true]);
  if (opt === 'baseline') return active.map((d) => [d, 'allreduce', false]);
  const last = active[active.length - 1];
  const down = active.slice(0, -1);
  return [...down.map((d): [number, PhaseKind, boolean] => [d, 'reduce-scatter', true]), [last, 'allreduce', true], ...[...down].reverse().map((d): [number, PhaseKind, boolean] => [d, 'allgather', true])];
}

/**
 * Emits every chunk's phases, chunk c on stream c, the data in `buf` laid out by `place`;
 * `copyIn(c, stream)` first puts chunk c's input there on every rank. Each dimension is one of
 * ASTRA-sim's queues (one per dimension, its default `num-queues-per-dim`): at most `active` phases
 * run in it at once, admitted first come, first served. A schedule fixes that order in advance:
 * phases are admitted by their place in the chunk (all first phases before any second one), then by
 * chunk, which is the order ASTRA-sim's FIFO sees when every chunk is issued at once; phase i of a
 * queue waits for phase i − active to finish (a zero-byte message between the two streams).
 * The allgather phases of localBWAware run the ring the other way (ASTRA-sim's anticlockwise
 * `get_next_queue_id_last`). Returns the number of streams.
 */
function emitChunks(b: ScheduleBuilder, ctx: AlgorithmContext, g: Geometry, buf: number, place: BlockPlace, chunks: number, tmpBytes: number, copyIn: (c: number, stream: number) => void, relayBuffers?: (p: number) => readonly [from: number, to: number]): number {
  const active = ctx.params.active as number;
  const phases = phasesOf(ctx.collective, g.dims, ctx.params.opt as string);
  const reverse = ctx.collective === 'allreduce' && ctx.params.opt === 'localBWAware';
  // Admission order of every queue: its (phase, chunk) pairs, phase-major.
  const queue = new Map<number, Array<[number, number]>>();
  for (const [p, [j]] of phases.entries()) for (let c = 0; c < chunks; c++) queue.set(j, [...(queue.get(j) ?? []), [p, c]]);
  const slot = (p: number, c: number): number => queue.get(phases[p][0])!.findIndex(([q, k]) => q === p && k === c);
  const tokenTag = (j: number, i: number): number => TOKEN_TAG + j * MAX_QUEUE + i;
  const none = b.region(RECV, 0, 0);
  for (let c = 0; c < chunks; c++) {
    const tmp = tmpBytes > 0 ? b.tmpBuffer(`tmp${c}`, tmpBytes) : -1;
    copyIn(c, c);
    for (const [p, [j, kind, scattered]] of phases.entries()) {
      const admitted = queue.get(j)!.length;
      const i = slot(p, c);
      if (i >= active) for (let r = 0; r < g.ranks; r++) b.recv(r, r, none, tokenTag(j, i), c);
      const n = g.dims[j];
      for (let base = 0; base < g.ranks; base++) {
        if (coordinate(g, base, j) !== 0) continue;
        // Ring position v is the NPU of coordinate coords[v].
        const coords = Array.from({ length: n }, (_, v) => (reverse && kind === 'allgather' ? n - 1 - v : v));
        const ring = coords.map((x) => base + x * g.stride[j]);
        const segment = (v: number): number[] => segmentBlocks(g, base, j, coords[v], scattered);
        const bytesOf = (v: number): number => segment(v).reduce((sum, r) => sum + place(c, r)[1], 0);
        const phase = { b, ring, region: (v: number) => blocksRegion(b, buf, segment(v), (r) => place(c, r)), bytes: bytesOf, tmp, stream: c, tag: c * phases.length + p };
        if (kind === 'relay') {
          const [from, to] = relayBuffers!(p);
          ringRelayOver({ ...phase, region: (v) => blocksRegion(b, from, segment(v), (r) => place(c, r)), into: (v) => blocksRegion(b, to, segment(v), (r) => place(c, r)) });
          continue;
        }
        if (kind !== 'allgather') ringReduceScatterOver(phase);
        if (kind !== 'reduce-scatter') ringAllgatherOver(phase);
      }
      if (i + active < admitted) for (let r = 0; r < g.ranks; r++) b.send(r, r, none, tokenTag(j, i + active), c);
    }
  }
  return chunks;
}

/** Every rank's streams 1 … streams−1 tell its stream 0 they are done (a zero-byte message to itself). */
function joinStreams(b: ScheduleBuilder, ranks: number, streams: number, tag: number): void {
  const none = b.region(RECV, 0, 0);
  for (let s = 1; s < streams; s++) {
    for (let r = 0; r < ranks; r++) {
      b.send(r, r, none, tag + s, s);
      b.recv(r, r, none, tag + s, 0);
    }
  }
}

const PARAMS: Algorithm['params'] = [
  { key: 'splits', kind: 'int', default: 1, min: 1, max: 256, description: "chunks the buffer is cut into, each on its own stream (ASTRA-sim's preferred-dataset-splits)" },
  { key: 'active', kind: 'int', default: 1, min: 1, max: 256, description: "chunks in flight at once in each dimension (ASTRA-sim's active-chunks-per-dimension)" },
  { key: 'opt', kind: 'choice', choices: ['localBWAware', 'baseline'], default: 'localBWAware', description: "allreduce: reduce-scatter down the dimensions and allgather back (localBWAware), or an allreduce per dimension (baseline); ASTRA-sim's collective-optimization" },
];

function supports(ctx: AlgorithmContext): string | undefined {
  const dims = rankDimensions(ctx.topology);
  if (typeof dims === 'string') return dims;
  const product = dims.reduce((x, y) => x * y, 1);
  if (product !== ctx.ranks) return `one rank per NPU (${product} NPUs, ${ctx.ranks} ranks)`;
  const unit = unitOf(ctx);
  const chunks = ctx.params.splits as number;
  const perBlock = ctx.collective === 'allgather' || ctx.collective === 'alltoall';
  const elements = perBlock ? ctx.size / unit : ctx.size / unit / ctx.ranks;
  if (elements < chunks) return `a size of at least splits (${chunks}) elements per ${ctx.collective === 'allgather' ? 'rank' : 'block'}`;
  return undefined;
}

/** Tags of the queue tokens and the stream join, above every chunk's phase tags (chunks × phases < 256 × 16). */
const MAX_QUEUE = 256 * 16;
const TOKEN_TAG = 1 << 20;
const JOIN_TAG = 1 << 26;

const SOURCE = 'ASTRA-sim native collectives (astra-sim @ 518bd513, Sys.cc generate_collective, ring)';
const SUPPORTS_TEXT = 'an astra: network, torus or mesh, one rank per NPU in its order';

registerAlgorithm({
  name: 'astra',
  collective: 'allreduce',
  description: "ASTRA-sim's multi-dimensional ring allreduce: chunks, reduce-scatter down the dimensions, allreduce on the last, allgather back",
  supportsText: SUPPORTS_TEXT,
  source: SOURCE,
  params: PARAMS,
  supports,
  build(ctx, newBuilder) {
    const g = geometryOf(ctx);
    const b = newBuilder();
    const unit = unitOf(ctx);
    const chunks = cut(0, ctx.size, ctx.params.splits as number, unit);
    const blocks = chunks.slice(0, -1).map((lo, c) => cut(lo, chunks[c + 1], g.ranks, unit));
    const place: BlockPlace = (c, r) => [blocks[c][r], blocks[c][r + 1] - blocks[c][r]];
    const copyIn = (c: number, stream: number): void => {
      for (let r = 0; r < g.ranks; r++) b.copy(r, b.region(SEND, chunks[c], chunks[c + 1] - chunks[c]), b.region(RECV, chunks[c], chunks[c + 1] - chunks[c]), stream);
    };
    emitChunks(b, ctx, g, RECV, place, blocks.length, chunks[1] - chunks[0], copyIn);
    return b.finish();
  },
});

registerAlgorithm({
  name: 'astra',
  collective: 'reduce-scatter',
  description: "ASTRA-sim's multi-dimensional ring reduce-scatter: chunks, one ring reduce-scatter per dimension, dimension 0 first",
  supportsText: SUPPORTS_TEXT,
  source: SOURCE,
  params: PARAMS,
  supports,
  build(ctx, newBuilder) {
    const g = geometryOf(ctx);
    const b = newBuilder();
    const unit = unitOf(ctx);
    // Block r is [r·B, (r+1)·B) of the buffer, so that rank r ends with it; chunk c is piece c of every block.
    const blockBytes = ctx.size / g.ranks;
    const pieces = cut(0, blockBytes, ctx.params.splits as number, unit);
    const acc = b.tmpBuffer('acc', ctx.size);
    const place: BlockPlace = (c, r) => [r * blockBytes + pieces[c], pieces[c + 1] - pieces[c]];
    const all = Array.from({ length: g.ranks }, (_, r) => r);
    const copyIn = (c: number, stream: number): void => {
      for (let r = 0; r < g.ranks; r++) b.copy(r, blocksRegion(b, SEND, all, (q) => place(c, q)), blocksRegion(b, acc, all, (q) => place(c, q)), stream);
    };
    const streams = emitChunks(b, ctx, g, acc, place, pieces.length - 1, (g.ranks / (g.dims.find((n) => n > 1) ?? 1)) * pieces[1], copyIn);
    joinStreams(b, g.ranks, streams, JOIN_TAG);
    for (let r = 0; r < g.ranks; r++) b.copy(r, b.region(acc, r * blockBytes, blockBytes), b.region(RECV, 0, blockBytes), 0);
    return b.finish();
  },
});

registerAlgorithm({
  name: 'astra',
  collective: 'allgather',
  description: "ASTRA-sim's multi-dimensional ring allgather: chunks, one ring allgather per dimension, the last dimension first",
  supportsText: SUPPORTS_TEXT,
  source: SOURCE,
  params: PARAMS,
  supports,
  build(ctx, newBuilder) {
    const g = geometryOf(ctx);
    const b = newBuilder();
    const pieces = cut(0, ctx.size, ctx.params.splits as number, 1);
    const place: BlockPlace = (c, r) => [r * ctx.size + pieces[c], pieces[c + 1] - pieces[c]];
    const copyIn = (c: number, stream: number): void => {
      for (let r = 0; r < g.ranks; r++) b.copy(r, b.region(SEND, pieces[c], pieces[c + 1] - pieces[c]), b.region(RECV, place(c, r)[0], place(c, r)[1]), stream);
    };
    emitChunks(b, ctx, g, RECV, place, pieces.length - 1, 0, copyIn);
    return b.finish();
  },
});

registerAlgorithm({
  name: 'astra',
  collective: 'alltoall',
  description: "ASTRA-sim's multi-dimensional ring all-to-all: chunks, one ring relay per dimension, dimension 0 first",
  supportsText: SUPPORTS_TEXT,
  source: SOURCE,
  params: PARAMS,
  supports,
  comparedWhenNamed: "ASTRA-sim's all-to-all, reproduced for its timing (a relay of P_d(P_d-1)/2 steps per dimension): compared when named (--include astra)",
  build(ctx, newBuilder) {
    const g = geometryOf(ctx);
    const b = newBuilder();
    // Piece c of every block is chunk c. Along dimension j, a rank's segment for coordinate v is
    // every slot q with q_j = v: slots are indexed by the destination's coordinates not yet crossed
    // and the source's ones already crossed, so each phase moves the segment for v to the rank of
    // coordinate v, where it lands in the slots of the sender's coordinate, and RECV ends by source.
    const pieces = cut(0, ctx.size, ctx.params.splits as number, 1);
    const place: BlockPlace = (c, r) => [r * ctx.size + pieces[c], pieces[c + 1] - pieces[c]];
    const phases = phasesOf('alltoall', g.dims, 'baseline').length;
    // Each phase reads what the last one wrote (a relay cannot work in place: a segment arrives
    // before the rank has sent the one in its slots); two work buffers take turns between SEND and RECV.
    const work = phases > 1 ? [b.tmpBuffer('work0', g.ranks * ctx.size), b.tmpBuffer('work1', g.ranks * ctx.size)] : [];
    const relayBuffers = (p: number): readonly [number, number] => [p === 0 ? SEND : work[(p - 1) % 2], p === phases - 1 ? RECV : work[p % 2]];
    const largest = maxOf(g.dims.map((n) => g.ranks / n), 0) * pieces[1];
    const copyIn = (c: number, stream: number): void => {
      // One rank: no phase, its own block stays.
      if (phases === 0) for (let r = 0; r < g.ranks; r++) b.copy(r, b.region(SEND, place(c, r)[0], place(c, r)[1]), b.region(RECV, place(c, r)[0], place(c, r)[1]), stream);
    };
    emitChunks(b, ctx, g, RECV, place, pieces.length - 1, largest, copyIn, relayBuffers);
    return b.finish();
  },
});
