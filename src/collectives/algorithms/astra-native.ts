/**
 * `astra`: ASTRA-sim's native collectives on a multi-dimensional network (astra-sim @ 518bd513,
 * system/Sys.cc `generate_collective`), so that a Chakra trace timed with ASTRA-sim's network and
 * system files runs the collective ASTRA-sim runs.
 *
 * The buffer is cut into `splits` chunks (ASTRA-sim's preferred-dataset-splits); each chunk is a
 * sequence of phases, one per dimension of more than one NPU, each among the NPUs that differ
 * only in that dimension (coordinate order), run by that dimension's implementation (`impl0` …
 * `impl3`, ASTRA-sim's *-implementation lists; native_collectives/collective_algorithm): `ring`
 * (Ring.cc, the default), `halvingDoubling` (HalvingDoubling.cc), `direct` (AllToAll.cc; with
 * `window`, its directW) or `doubleBinaryTree` (DoubleBinaryTreeAllReduce.cc); impl0 may also be a
 * one* variant (`oneRing`, `oneDirect`, `oneHalvingDoubling`), the implementation once over every
 * NPU in NPU order (one dimension of all ranks, GeneralComplexTopology):
 * - allreduce, opt=localBWAware (ASTRA-sim's collective-optimization): reduce-scatter along
 *   dimensions 0 … k−2, allreduce along the last, allgather along k−2 … 0; opt=baseline: an
 *   allreduce along every dimension in turn, on the whole chunk;
 * - reduce-scatter: along dimensions 0 … k−1; allgather: along k−1 … 0 (ASTRA-sim reverses them).
 * Chunk c runs on stream c mod `active` (active-chunks-per-dimension): at most `active` chunks are
 * in flight, the next one starting when one finishes. The dimensions are the topology's: an
 * `astra:` network's, or a torus's or mesh's axes. halvingDoubling, direct and doubleBinaryTree
 * run parts of a phase on helper streams of the chunk (streams chunks + c · helpers + i), where
 * ASTRA-sim overlaps them: its reductions and sends are events of their own.
 *
 * Data: the blocks stay where Meshwork's postconditions want them. With dimension 0 fastest in the
 * rank number, the segment of ring position v in the phase along dimension j is the set of blocks
 * {r : r_d = a_d for d < j, r_j = v} (a the rank's address), so after the reduce-scatter phases
 * rank a holds block a, and the allgather phases undo them in reverse.
 */
import { gridShape } from './alltoall/axis-phases.js';
import { registerAlgorithm, type Algorithm, type AlgorithmContext, type ParamDecl } from '../registry.js';
import { MAX_STREAMS, RECV, SEND, type BuilderInit, type Schedule, type ScheduleBuilder } from '../schedule.js';
import type { CollectiveKind } from '../types.js';
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

/** One group's dimensions: every rank's, or with `dims=L` the first L (ASTRA-sim's logical topology). */
interface Geometry {
  readonly dims: readonly number[];
  /** stride[d] = product of dims[0..d-1]; stride[k] = ranks. */
  readonly stride: readonly number[];
  /** Ranks in one group; the groups are [o, o + ranks) for o = 0, ranks, 2·ranks, … */
  readonly ranks: number;
}

function geometryOf(ctx: AlgorithmContext): Geometry {
  const all = rankDimensions(ctx.topology) as readonly number[];
  // A one* variant: ASTRA-sim's logical topology is one ring of every NPU (GeneralComplexTopology).
  const dims = isOneVariant(ctx.params.impl0 as string) ? [ctx.ranks] : (ctx.params.dims as number) > 0 ? all.slice(0, ctx.params.dims as number) : all;
  const stride = [1];
  for (const n of dims) stride.push(stride[stride.length - 1] * n);
  return { dims, stride, ranks: stride[dims.length] };
}

/** The first rank of every group. */
const groupOffsets = (ctx: AlgorithmContext, g: Geometry): number[] => Array.from({ length: ctx.ranks / g.ranks }, (_, h) => h * g.ranks);

/** The builder: one part (sub-communicator) per group, of `size` bytes, when the collective runs within groups. */
function builderFor(ctx: AlgorithmContext, g: Geometry, newBuilder: (overrides?: Partial<BuilderInit>) => ScheduleBuilder, size = ctx.size): ScheduleBuilder {
  if (g.ranks === ctx.ranks) return newBuilder();
  const parts = groupOffsets(ctx, g).map((o) => ({ collective: ctx.collective, ranks: Array.from({ length: g.ranks }, (_, l) => o + l), size }));
  return newBuilder({ parts });
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

/** Where block r of chunk c lies: [buffer, offset, bytes). */
type BlockPlace = (c: number, r: number) => readonly [number, number, number];

/** A region of the listed blocks, adjacent ones merged into one extent. */
function blocksRegion(b: ScheduleBuilder, blocks: readonly number[], place: (r: number) => readonly [number, number, number]): number {
  const extents: Array<[number, number, number]> = [];
  for (const r of blocks) {
    const [buf, offset, bytes] = place(r);
    const last = extents[extents.length - 1];
    if (last && last[0] === buf && last[1] + last[2] === offset) last[2] += bytes;
    else extents.push([buf, offset, bytes]);
  }
  return b.extents(extents);
}

/**
 * The bytes of ASTRA-sim's extra chunk, 0 when there is none. ASTRA-sim cuts `total` bytes into
 * chunks of ⌊total / splits⌋ (Sys.cc determine_chunk_size) and issues chunks of that size until
 * they cover `total` (generate_collective's loop), so when splits does not divide it there is one
 * more chunk than splits, reaching beyond the buffer. remainder=astra (the default) runs that chunk
 * on a scratch buffer, whose result is thrown away: it costs what it costs ASTRA-sim; remainder=exact
 * cuts the buffer into exactly splits chunks. Rounded down to whole elements.
 */
function extraChunkBytes(ctx: AlgorithmContext, total: number, unit: number): number {
  const splits = ctx.params.splits as number;
  const chunk = Math.floor(total / splits);
  if (ctx.params.remainder !== 'astra' || total === splits * chunk) return 0;
  return Math.floor(chunk / unit) * unit;
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

/** One dimension's group of a phase for halvingDoubling, direct or doubleBinaryTree: ring position v is NPU ring[v], its blocks segment(v). */
interface NativePhase {
  readonly b: ScheduleBuilder;
  readonly ring: readonly number[];
  segment(v: number): number[];
  place(r: number): readonly [number, number, number];
  /** A tmp buffer of at least the chunk's bytes (the steps receive at successive offsets). */
  readonly tmp: number;
  readonly stream: number;
  /** The chunk's helper stream i (halvingDoubling: 0, for the reductions of the kept half; direct: one per peer; doubleBinaryTree: one per child). */
  helper(i: number): number;
  readonly tag: number;
  /** direct's window (ASTRA-sim's directW): exchanges in flight at once, 0 for all n − 1 (plain direct). */
  readonly window: number;
}

/** The tag of signal i between a phase's main and helper streams (i < 64: two per halving step at most). */
const sideTag = (p: NativePhase, i: number): number => SIDE_TAG + p.tag * 64 + i;

/** The blocks of a set of ring positions, ascending (the byte order of a message carrying them). */
/** Bytes of blocks `blocks` in the phase's placement. */
const blocksBytes = (p: NativePhase, blocks: readonly number[]): number => blocks.reduce((sum, r) => sum + p.place(r)[2], 0);
const blocksOfPositions = (p: NativePhase, positions: readonly number[]): number[] => positions.flatMap((w) => p.segment(w)).sort((x, y) => x - y);

/**
 * ASTRA-sim's halvingDoubling reduce-scatter (HalvingDoubling.cc) along one dimension of n = 2^m
 * NPUs: step k = 1 … m exchanges with the position at XOR distance 2^(k−1), sending the half of
 * what it holds whose bit k−1 is the partner's (ASTRA-sim: msg_size = size / 2^k), and reducing the
 * half it keeps; position v ends with its own segment.
 *
 * ASTRA-sim charges each step's reduction on the *next* message's size (PacketBundle of the packet
 * it inserts, half the received bytes) and none after the last step (its packet counters reset
 * there: the packet it inserts goes to memory unprocessed, in an allreduce as the allgather's first).
 * So the main stream reduces only the part it sends next (what ASTRA-sim charges), and the part it
 * keeps is reduced on the chunk's second stream in the same time; the last step's block is reduced
 * there too, uncharged (the data is combined and checked, in no time, as ASTRA-sim counts it), and
 * the main stream waits for it.
 */
function halvingReduceScatter(p: NativePhase): void {
  const { b, ring } = p;
  const n = ring.length;
  const none = b.region(RECV, 0, 0);
  for (let v = 0; v < n; v++) {
    const me = ring[v];
    let held = Array.from({ length: n }, (_, w) => w);
    let tmpOffset = 0;
    let step = 0;
    for (let o = 1; o < n; o *= 2, step++) {
      const partner = ring[v ^ o];
      const sent = held.filter((w) => (w & o) !== (v & o));
      held = held.filter((w) => (w & o) === (v & o));
      b.send(me, partner, blocksRegion(b, blocksOfPositions(p, sent), p.place), p.tag, p.stream);
      // The partner sends its contribution to what this position keeps, its blocks in ascending order.
      const blocks = blocksOfPositions(p, held);
      const at = new Map<number, number>();
      let bytes = 0;
      for (const r of blocks) {
        at.set(r, tmpOffset + bytes);
        bytes += p.place(r)[2];
      }
      b.recv(me, partner, b.region(p.tmp, tmpOffset, bytes), p.tag, p.stream);
      tmpOffset += bytes;
      // The previous step's reduction on the second stream has written blocks this one adds to.
      if (step > 0) b.recv(me, me, none, sideTag(p, 2 * step - 1), p.stream);
      const last = 2 * o >= n;
      const nextSent = last ? [] : blocksOfPositions(p, held.filter((w) => (w & (2 * o)) !== (v & (2 * o))));
      const kept = blocks.filter((r) => !nextSent.includes(r));
      const reduce = (list: readonly number[], stream: number, charged: boolean): void => {
        if (list.length > 0) b.reduce(me, blocksRegion(b, list, (r) => [p.tmp, at.get(r)!, p.place(r)[2]]), blocksRegion(b, list, p.place), stream, undefined, charged);
      };
      b.send(me, me, none, sideTag(p, 2 * step), p.stream);
      reduce(nextSent, p.stream, true);
      b.recv(me, me, none, sideTag(p, 2 * step), p.helper(0));
      reduce(kept, p.helper(0), !last);
      b.send(me, me, none, sideTag(p, 2 * step + 1), p.helper(0));
    }
    b.recv(me, me, none, sideTag(p, 2 * step - 1), p.stream);
  }
}

/**
 * ASTRA-sim's halvingDoubling allgather along one dimension: steps with the position at XOR
 * distance n/2, n/4, … 1, each sending everything held so far (ASTRA-sim: msg_size doubling from
 * the chunk's block), received in place.
 */
function halvingAllgather(p: NativePhase): void {
  const { b, ring } = p;
  const n = ring.length;
  for (let v = 0; v < n; v++) {
    const me = ring[v];
    let held = [v];
    for (let o = n / 2; o >= 1; o /= 2) {
      const partner = ring[v ^ o];
      const theirs = held.map((w) => w ^ o);
      b.send(me, partner, blocksRegion(b, blocksOfPositions(p, held), p.place), p.tag, p.stream);
      b.recv(me, partner, blocksRegion(b, blocksOfPositions(p, theirs), p.place), p.tag, p.stream);
      held = [...held, ...theirs];
    }
  }
}

/**
 * Runs `body(k)` for every peer offset k = 1 … n − 1 on helper stream k − 1 of every position, after
 * the main stream gets there, and has the main stream wait for all of them (zero-byte signals to
 * the rank itself: free). ASTRA-sim's direct (AllToAll.cc) issues its n − 1 packets at once, each
 * bundle and reduction an event of its own, so the peers' messages and reductions overlap.
 */
function onPeerStreams(p: NativePhase, v: number, round: number, body: (k: number, stream: number) => void): void {
  const { b, ring } = p;
  const n = ring.length;
  const me = ring[v];
  const none = b.region(RECV, 0, 0);
  for (let k = 1; k < n; k++) {
    b.send(me, me, none, sideTag(p, 2 * round), p.stream);
    b.recv(me, me, none, sideTag(p, 2 * round), p.helper(k - 1));
    body(k, p.helper(k - 1));
    b.send(me, me, none, sideTag(p, 2 * round + 1), p.helper(k - 1));
  }
  for (let k = 1; k < n; k++) b.recv(me, me, none, sideTag(p, 2 * round + 1), p.stream);
}

/** The exchanges in flight at once of direct with `window` on n positions: ASTRA-sim's parallel_reduce = min(window, n − 1). */
const slotsOf = (window: number, n: number): number => (window === 0 ? n - 1 : Math.min(window, n - 1));

/**
 * directW (AllToAll.cc with a window w < n − 1): w exchanges start at once (peer offsets 1 … w), and
 * every received message, whichever it is, starts the next one in peer order: ASTRA-sim's
 * PacketReceived inserts the packet for its next receiver (AllToAll::run, process_max_count), so the
 * i-th arrival starts offset w + i. Messages need not arrive in the order they were sent (a k-hop
 * message behind a (k + 1)-hop one the shorter way round, or queued behind other messages on a
 * store-and-forward link), so the trigger is a count, not a pairing. Exchange k runs on helper
 * stream k − 1 (its send, then its receive, as ASTRA-sim posts them together) and signals its
 * arrival to the main stream; the main stream lets exchange k > w go after its (k − w)-th arrival
 * signal. Each send pays its endpoint delay on its own stream, so sends started at once leave at
 * once, as ASTRA-sim's do (one sender stream would space them α apart).
 * `step(k, stream, arrived)` receives offset k on `stream` and calls `arrived()` where the next
 * send may start.
 */
function onWindowSlots(p: NativePhase, v: number, round: number, send: (k: number, stream: number) => void, step: (k: number, stream: number, arrived: () => void) => void): void {
  const { b, ring } = p;
  const n = ring.length;
  const me = ring[v];
  const w = slotsOf(p.window, n);
  const none = b.region(RECV, 0, 0);
  // Rounds 0 and 1 use side tags 0 … 3; the arrival signals take 4 + round.
  const arrivedTag = sideTag(p, 4 + round);
  const goTag = (k: number): number => GO_TAG + (2 * p.tag + round) * MAX_STREAMS + k;
  for (let k = 1; k < n; k++) {
    const stream = p.helper(k - 1);
    b.send(me, me, none, sideTag(p, 2 * round), p.stream);
    b.recv(me, me, none, sideTag(p, 2 * round), stream);
    if (k > w) b.recv(me, me, none, goTag(k), stream);
    send(k, stream);
    step(k, stream, () => b.send(me, me, none, arrivedTag, stream));
    b.waitall(me, stream);
    b.send(me, me, none, sideTag(p, 2 * round + 1), stream);
  }
  for (let k = w + 1; k < n; k++) {
    b.recv(me, me, none, arrivedTag, p.stream);
    b.send(me, me, none, goTag(k), p.stream);
  }
  // The last w arrivals start no exchange; their signals are taken here.
  for (let i = 0; i < w; i++) b.recv(me, me, none, arrivedTag, p.stream);
  for (let k = 1; k < n; k++) b.recv(me, me, none, sideTag(p, 2 * round + 1), p.stream);
}

/**
 * ASTRA-sim's direct reduce-scatter along one dimension (AllToAll.cc with window −1, its Ring
 * constructor's msg_size = size / n): each position sends every other its segment at once and
 * reduces each contribution as it arrives; the reductions overlap (each its own event).
 *
 * With a window w < n − 1 (directW) the exchanges run w at a time (onWindowSlots), and ASTRA-sim
 * charges the reduction of only every other window of arrivals (Ring::insert_packet alternates w
 * packets without processing and w with it, the first w being the initial sends): arrivals
 * 1 … w, 2w + 1 … 3w, … are reduced before their slot's next send, the others uncharged (their
 * data combined in no time, as ASTRA-sim counts them).
 */
function directReduceScatter(p: NativePhase, charged = (k: number): boolean => Math.floor((k - 1) / slotsOf(p.window, p.ring.length)) % 2 === 0): void {
  const { b, ring } = p;
  const n = ring.length;
  if (slotsOf(p.window, n) < n - 1) {
    for (let v = 0; v < n; v++) {
      const me = ring[v];
      const mine = blocksRegion(b, p.segment(v), p.place);
      const bytes = blocksBytes(p, p.segment(v));
      onWindowSlots(
        p, v, 0,
        (k, stream) => b.isend(me, ring[(v + k) % n], blocksRegion(b, p.segment((v + k) % n), p.place), p.tag, stream),
        (k, stream, arrived) => {
          const slot = b.region(p.tmp, (k - 1) * bytes, bytes);
          b.recv(me, ring[(v - k + n) % n], slot, p.tag, stream);
          b.reduce(me, slot, mine, stream, undefined, charged(k));
          arrived();
        },
      );
    }
    return;
  }
  for (let v = 0; v < n; v++) {
    const me = ring[v];
    const mine = blocksRegion(b, p.segment(v), p.place);
    const bytes = blocksBytes(p, p.segment(v));
    onPeerStreams(p, v, 0, (k, stream) => {
      const to = (v + k) % n;
      const from = (v - k + n) % n;
      b.send(me, ring[to], blocksRegion(b, p.segment(to), p.place), p.tag, stream);
      const slot = b.region(p.tmp, (k - 1) * bytes, bytes);
      b.recv(me, ring[from], slot, p.tag, stream);
      b.reduce(me, slot, mine, stream);
    });
  }
}

/**
 * ASTRA-sim's direct allgather along one dimension: each position sends its segment to every other
 * at once (or w at a time: directW), received in place. `charged(k)`: ASTRA-sim charges a reduction
 * on arrival k before the next send (its windowed allreduce's second half, below), which Meshwork
 * does into a scratch copy (the arrival is already the result).
 */
function directAllgather(p: NativePhase, charged = (_k: number): boolean => false): void {
  const { b, ring } = p;
  const n = ring.length;
  if (slotsOf(p.window, n) < n - 1) {
    for (let v = 0; v < n; v++) {
      const me = ring[v];
      const mine = blocksRegion(b, p.segment(v), p.place);
      const bytes = blocksBytes(p, p.segment(v));
      onWindowSlots(
        p, v, 1,
        (k, stream) => b.isend(me, ring[(v + k) % n], mine, p.tag, stream),
        (k, stream, arrived) => {
          const from = (v - k + n) % n;
          const region = blocksRegion(b, p.segment(from), p.place);
          b.recv(me, ring[from], region, p.tag, stream);
          // The reduce-scatter's receive slots are free by now: slot k − 1 (one per arrival, so slots never share one).
          if (charged(k)) b.reduce(me, region, b.region(p.tmp, (k - 1) * bytes, blocksBytes(p, p.segment(from))), stream);
          arrived();
        },
      );
    }
    return;
  }
  for (let v = 0; v < n; v++) {
    const me = ring[v];
    const mine = blocksRegion(b, p.segment(v), p.place);
    onPeerStreams(p, v, 1, (k, stream) => {
      const from = (v - k + n) % n;
      b.send(me, ring[(v + k) % n], mine, p.tag, stream);
      b.recv(me, ring[from], blocksRegion(b, p.segment(from), p.place), p.tag, stream);
    });
  }
}

/**
 * ASTRA-sim's direct all-to-all phase along one dimension (AllToAll.cc with ComType All_to_All and
 * no window: n − 1 messages of chunk / n, every one issued at once): position v sends each other
 * position w its data for w (`from(w)`) and receives position u's data for it into `into(u)`; the
 * peers' messages overlap, each on a helper stream of the chunk as in the reduce-scatter above.
 */
function directAllToAll(p: NativePhase, from: (v: number) => number, into: (v: number) => number): void {
  const { b, ring } = p;
  const n = ring.length;
  for (let v = 0; v < n; v++) {
    const me = ring[v];
    b.copy(me, from(v), into(v), p.stream);
    if (slotsOf(p.window, n) < n - 1) {
      onWindowSlots(
        p, v, 0,
        (k, stream) => b.isend(me, ring[(v + k) % n], from((v + k) % n), p.tag, stream),
        (k, stream, arrived) => {
          b.recv(me, ring[(v - k + n) % n], into((v - k + n) % n), p.tag, stream);
          arrived();
        },
      );
      continue;
    }
    onPeerStreams(p, v, 0, (k, stream) => {
      b.send(me, ring[(v + k) % n], from((v + k) % n), p.tag, stream);
      b.recv(me, ring[(v - k + n) % n], into((v - k + n) % n), p.tag, stream);
    });
  }
}

/** A node of ASTRA-sim's BinaryTree: its parent and children as ring positions (−1: none). */
interface TreeNode {
  parent: number;
  readonly children: number[];
}

/**
 * ASTRA-sim's BinaryTree over n = 2^m positions (BinaryTree.cc): a top node with one child, the
 * root of a complete tree of the other n − 1, numbered in order (left subtree, node, right
 * subtree); RootMax puts the top node last (the subtree on its left), RootMin first.
 */
function binaryTree(n: number, rootMax: boolean): TreeNode[] {
  const nodes = Array.from({ length: n }, (): TreeNode => ({ parent: -1, children: [] }));
  const top = rootMax ? n - 1 : 0;
  const build = (lo: number, hi: number, parent: number): void => {
    if (lo > hi) return;
    const mid = (lo + hi) >> 1;
    nodes[mid].parent = parent;
    nodes[parent].children.push(mid);
    build(lo, mid - 1, mid);
    build(mid + 1, hi, mid);
  };
  if (rootMax) build(0, n - 2, top);
  else build(1, n - 1, top);
  return nodes;
}

/**
 * ASTRA-sim's doubleBinaryTree allreduce along one dimension (DoubleBinaryTreeAllReduce.cc): the
 * whole chunk goes up the tree, each node reducing its children's as they arrive (one event each,
 * so they overlap: a helper stream per child), to the top node, which reduces its child's and sends
 * the result back down. ASTRA-sim alternates the two trees (RootMax, RootMin) between chunks
 * (DoubleBinaryTreeTopology::get_topology). On the way down an inner node charges one more
 * reduction of the chunk (its PacketBundle with processing) on a result it only stores: Meshwork
 * charges it as a reduction between two scratch copies, so the data stay exact and the time is
 * ASTRA-sim's.
 */
function treeAllreduce(p: NativePhase, rootMax: boolean, awaitSends: boolean): void {
  const { b, ring } = p;
  const n = ring.length;
  const tree = binaryTree(n, rootMax);
  const all = blocksOfPositions(p, Array.from({ length: n }, (_, w) => w));
  const data = blocksRegion(b, all, p.place);
  const bytes = blocksBytes(p, all);
  const slot = (i: number): number => b.region(p.tmp, i * bytes, bytes);
  const none = b.region(RECV, 0, 0);
  for (let v = 0; v < n; v++) {
    const me = ring[v];
    const { parent, children } = tree[v];
    // Up: every child's chunk reduced on a helper stream of its own, the main stream waiting for all.
    for (const [i, child] of children.entries()) {
      b.send(me, me, none, sideTag(p, 0), p.stream);
      b.recv(me, me, none, sideTag(p, 0), p.helper(i));
      b.recv(me, ring[child], slot(i), p.tag, p.helper(i));
      b.reduce(me, slot(i), data, p.helper(i));
      b.send(me, me, none, sideTag(p, 1), p.helper(i));
    }
    for (let i = 0; i < children.length; i++) b.recv(me, me, none, sideTag(p, 1), p.stream);
    if (parent >= 0) {
      b.send(me, ring[parent], data, p.tag, p.stream);
      b.recv(me, ring[parent], data, p.tag, p.stream);
      if (children.length > 0) b.reduce(me, slot(0), slot(1), p.stream);
    }
    // Down: the result to every child at once. ASTRA-sim's node is done once it has issued them;
    // when a later phase of the chunk reduces into these blocks, the main stream waits until they
    // are posted (they read the blocks as they leave), one endpoint delay later.
    for (const [i, child] of children.entries()) {
      b.send(me, me, none, sideTag(p, 2), p.stream);
      b.recv(me, me, none, sideTag(p, 2), p.helper(i));
      if (!awaitSends) {
        b.send(me, ring[child], data, p.tag, p.helper(i));
        continue;
      }
      b.isend(me, ring[child], data, p.tag, p.helper(i));
      b.send(me, me, none, sideTag(p, 3), p.helper(i));
      b.waitall(me, p.helper(i));
    }
    if (awaitSends) for (let i = 0; i < children.length; i++) b.recv(me, me, none, sideTag(p, 3), p.stream);
  }
}

/**
 * Emits every chunk's phases, chunk c on stream c (`chunks` streams), its data laid out by `place`;
 * `copyIn(c, stream)` first puts chunk c's input there on every rank. Each dimension is one of
 * ASTRA-sim's queues (one per dimension, its default `num-queues-per-dim`): at most `active` phases
 * run in it at once, admitted first come, first served. A schedule fixes that order in advance:
 * phases are admitted by their place in the chunk (all first phases before any second one), then by
 * chunk, which is the order ASTRA-sim's FIFO sees when every chunk is issued at once; phase i of a
 * queue waits for phase i − active to finish (a zero-byte message between the two streams).
 * The allgather phases of localBWAware run the ring the other way (ASTRA-sim's anticlockwise
 * `get_next_queue_id_last`). A relay phase (all-to-all) reads block r of chunk c at
 * `relayPlace(p, c, r, 'from')` and writes it at `relayPlace(p, c, r, 'to')`.
 */
function emitChunks(
  b: ScheduleBuilder, ctx: AlgorithmContext, g: Geometry, offset: number, place: BlockPlace, chunks: number, tmpOf: (c: number) => number, copyIn: (c: number, stream: number) => void,
  relayPlace?: (p: number, c: number, r: number, side: 'from' | 'to') => readonly [number, number, number],
): void {
  const active = ctx.params.active as number;
  const phases = phasesOf(ctx.collective, g.dims, ctx.params.opt as string);
  const reverse = ctx.collective === 'allreduce' && ctx.params.opt === 'localBWAware';
  // Admission order of every queue: the chunks of its (phase, chunk) pairs, phase-major; slot[p][c] is the pair's place.
  const queue = new Map<number, number[]>();
  const slot = phases.map(([j]) => {
    const admitted = queue.get(j) ?? [];
    queue.set(j, admitted);
    return Array.from({ length: chunks }, (_, c) => admitted.push(c) - 1);
  });
  const tokenTag = (j: number, i: number): number => TOKEN_TAG + j * MAX_QUEUE + i;
  const helpers = helperStreams(ctx, g);
  const none = b.region(RECV, 0, 0);
  for (let c = 0; c < chunks; c++) {
    const tmp = tmpOf(c);
    copyIn(c, c);
    for (const [p, [j, kind, scattered]] of phases.entries()) {
      const order = queue.get(j)!;
      const i = slot[p][c];
      // A phase waits for the one `active` places before it in its queue; on its own stream program order already does.
      if (i >= active && order[i - active] !== c) for (let r = offset; r < offset + g.ranks; r++) b.recv(r, r, none, tokenTag(j, i), c);
      const n = g.dims[j];
      // Ring position v is the NPU of coordinate coords[v].
      const coords = Array.from({ length: n }, (_, v) => (reverse && kind === 'allgather' ? n - 1 - v : v));
      for (let base = 0; base < g.ranks; base++) {
        if (coordinate(g, base, j) !== 0) continue;
        const ring = coords.map((x) => offset + base + x * g.stride[j]);
        const segment = (v: number): number[] => segmentBlocks(g, base, j, coords[v], scattered);
        const bytesOf = (v: number): number => segment(v).reduce((sum, r) => sum + place(c, r)[2], 0);
        const phase = { b, ring, region: (v: number) => blocksRegion(b, segment(v), (r) => place(c, r)), bytes: bytesOf, tmp, stream: c, tag: c * phases.length + p };
        const impl = implementationOf(ctx, j);
        const helper = (i: number): number => chunks + c * helpers + i;
        const positions = { b, ring, segment, place: (r: number) => place(c, r), tmp, stream: c, helper, tag: c * phases.length + p, window: ctx.params.window as number };
        if (kind === 'relay') {
          const side = (v: number, s: 'from' | 'to'): number => blocksRegion(b, segment(v), (r) => relayPlace!(p, c, r, s));
          if (impl === 'direct') directAllToAll(positions, (v) => side(v, 'from'), (v) => side(v, 'to'));
          else ringRelayOver({ ...phase, region: (v) => side(v, 'from'), into: (v) => side(v, 'to') });
          continue;
        }
        if (impl !== 'ring') {
          if (impl === 'halvingDoubling') {
            if (kind !== 'allgather') halvingReduceScatter(positions);
            if (kind !== 'reduce-scatter') halvingAllgather(positions);
          } else if (impl === 'doubleBinaryTree') {
            // Baseline: a later dimension's allreduce reduces into the blocks the tree's last sends read.
            treeAllreduce(positions, c % 2 === 0, phases.slice(p + 1).some(([, later]) => later !== 'allgather'));
          } else if (kind === 'allreduce' && slotsOf(positions.window, n) < n - 1) {
            // directW's allreduce phase (AllToAll.cc): its Ring::insert_packet processes arrivals by a
            // toggle flipped every other window, so arrivals 1 … w, 4w + 1 … 5w, … of the 2(n − 1)
            // are charged a reduction, in both halves; the allgather half starts once every
            // contribution has arrived (AllToAll::run), w sends at once.
            const charged = (a: number): boolean => Math.floor((a - 1) / slotsOf(positions.window, n)) % 4 === 0;
            directReduceScatter(positions, charged);
            directAllgather(positions, (k) => charged(n - 1 + k));
          } else {
            if (kind !== 'allgather') directReduceScatter(positions);
            if (kind !== 'reduce-scatter') directAllgather(positions);
          }
          continue;
        }
        if (kind !== 'allgather') ringReduceScatterOver(phase);
        if (kind !== 'reduce-scatter') ringAllgatherOver(phase);
      }
      if (i + active < order.length && order[i + active] !== c) for (let r = offset; r < offset + g.ranks; r++) b.send(r, r, none, tokenTag(j, i + active), c);
    }
  }
}

/** Every rank's streams 1 … streams−1 tell its stream 0 they are done (a zero-byte message to itself). */
function joinStreams(b: ScheduleBuilder, ranks: Iterable<number>, streams: number, tag: number): void {
  const none = b.region(RECV, 0, 0);
  for (let s = 1; s < streams; s++) {
    for (const r of ranks) {
      b.send(r, r, none, tag + s, s);
      b.recv(r, r, none, tag + s, 0);
    }
  }
}

/** ASTRA-sim's native implementations modelled per dimension (its *-implementation lists). */
const IMPLEMENTATIONS = ['ring', 'halvingDoubling', 'direct', 'doubleBinaryTree'] as const;
type Implementation = (typeof IMPLEMENTATIONS)[number];
/**
 * ASTRA-sim's one* variants (impl0 only): the implementation run once over every NPU, in NPU order,
 * whatever the network's dimensions (GeneralComplexTopology builds one RingTopology of all NPUs
 * and ignores the list's later entries; Sys.cc generate_collective_phase then runs the plain one).
 */
const ONE_VARIANTS = { oneRing: 'ring', oneDirect: 'direct', oneHalvingDoubling: 'halvingDoubling' } as const satisfies Record<string, Implementation>;
type OneVariant = keyof typeof ONE_VARIANTS;
const isOneVariant = (name: string): name is OneVariant => Object.hasOwn(ONE_VARIANTS, name);
/** One parameter per dimension: impl0 … impl3 (ASTRA-sim's example networks have at most 3). */
const IMPL_KEYS = ['impl0', 'impl1', 'impl2', 'impl3'] as const;
function implementationOf(ctx: AlgorithmContext, d: number): Implementation {
  if (d >= IMPL_KEYS.length) return 'ring';
  const name = ctx.params[IMPL_KEYS[d]] as Implementation | OneVariant;
  return isOneVariant(name) ? ONE_VARIANTS[name] : name;
}

/** Helper streams per chunk: one for halvingDoubling's reductions, two for a tree node's children, n − 1 for direct's peers (the most any dimension needs). */
function helperStreams(ctx: AlgorithmContext, g: Geometry): number {
  let most = 0;
  for (const [d, n] of g.dims.entries()) {
    const impl = implementationOf(ctx, d);
    if (n > 1) most = Math.max(most, impl === 'halvingDoubling' ? 1 : impl === 'doubleBinaryTree' ? 2 : impl === 'direct' ? n - 1 : 0);
  }
  return most;
}

const PARAMS: Algorithm['params'] = [
  { key: 'splits', kind: 'int', default: 1, min: 1, max: 255, description: "chunks the buffer is cut into, each on its own stream (ASTRA-sim's preferred-dataset-splits)" },
  { key: 'active', kind: 'int', default: 1, min: 1, max: 256, description: "chunks in flight at once in each dimension (ASTRA-sim's active-chunks-per-dimension)" },
  {
    key: 'dims', kind: 'int', default: 0, min: 0, max: 8,
    description: "0: every dimension; L: the first L only, the collective running within each group of them (what ASTRA-sim does with L implementations listed for a network of more dimensions)",
  },
  {
    key: 'remainder', kind: 'choice', choices: ['astra', 'exact'], default: 'astra',
    description: "when splits does not divide the size: astra, ASTRA-sim's chunks of ⌊size / splits⌋ and one more (on a scratch buffer: it moves what ASTRA-sim moves), or exact, splits chunks covering the buffer",
  },
  {
    key: 'window', kind: 'int', default: 0, min: 0, max: 255,
    description: "direct dimensions' window (ASTRA-sim's directW): exchanges in flight at once, each arrival starting the next; 0 = all n-1 at once (its plain direct)",
  },
  { key: 'opt', kind: 'choice', choices: ['localBWAware', 'baseline'], default: 'localBWAware', description: "allreduce: reduce-scatter down the dimensions and allgather back (localBWAware), or an allreduce per dimension (baseline); ASTRA-sim's collective-optimization" },
  ...IMPL_KEYS.map((key, d): ParamDecl => ({
    key, kind: 'choice', choices: d === 0 ? [...IMPLEMENTATIONS, ...Object.keys(ONE_VARIANTS)] : IMPLEMENTATIONS, default: 'ring',
    description:
      d === 0
        ? "dimension 0's implementation (entry 0 of ASTRA-sim's *-implementation list): ring; halvingDoubling (recursive halving and doubling, partners at XOR distance; a power-of-two dimension); direct (every NPU of the dimension at once); doubleBinaryTree (allreduce up and down a binary tree, alternating between two trees by chunk; a power-of-two dimension whose phase is an allreduce); oneRing, oneDirect, oneHalvingDoubling (ring, direct, halvingDoubling once over every NPU in NPU order, ASTRA-sim's one* variants; impl1 … impl3 and dims then unused); all-to-all: ring, direct, oneRing, oneDirect"
        : `dimension ${d}'s implementation, as impl0 (not the one* variants)`,
  })),
];

function supports(ctx: AlgorithmContext): string | undefined {
  const dims = rankDimensions(ctx.topology);
  if (typeof dims === 'string') return dims;
  const product = dims.reduce((x, y) => x * y, 1);
  if (product !== ctx.ranks) return `one rank per NPU (${product} NPUs, ${ctx.ranks} ranks)`;
  if ((ctx.params.dims as number) > dims.length) return `dims at most the network's ${dims.length} dimension(s)`;
  if (isOneVariant(ctx.params.impl0 as string)) {
    // ASTRA-sim's logical topology ends at a one* entry: the later ones and a group size would be ignored.
    const later = IMPL_KEYS.slice(1).find((key) => ctx.params[key] !== 'ring');
    if (later) return `impl1 … impl3 left at ring with impl0=${String(ctx.params.impl0)} (${later}=${String(ctx.params[later])}: ASTRA-sim's one* variant runs over every NPU and ignores the later entries)`;
    if ((ctx.params.dims as number) > 0) return `dims=0 with impl0=${String(ctx.params.impl0)} (ASTRA-sim's one* variant runs over every NPU)`;
  }
  const g = geometryOf(ctx);
  if ((ctx.params.window as number) > 0 && !g.dims.some((n, d) => implementationOf(ctx, d) === 'direct' && n > 1)) return `window only with a direct dimension (impl0 … impl3 = direct, or oneDirect)`;
  for (let d = 0; d < IMPL_KEYS.length; d++) {
    const impl = implementationOf(ctx, d);
    if (impl === 'ring') continue;
    if (d >= g.dims.length) return `${IMPL_KEYS[d]} only for a dimension the collective runs along (it has ${g.dims.length})`;
    // HalvingDoubling.cc exits on an all-to-all; DoubleBinaryTreeAllReduce reduces whatever the collective.
    if (ctx.collective === 'alltoall' && impl !== 'direct') return `ring or direct on every dimension for all-to-all (${IMPL_KEYS[d]}=${String(ctx.params[IMPL_KEYS[d]])}: ASTRA-sim has no ${impl} all-to-all)`;
    // ASTRA-sim counts log2(n) steps (HalvingDoubling.cc) and pairs index XOR offset: only a power of two closes.
    // Its BinaryTree has 2^⌊log2 n⌋ nodes (BinaryTree.cc): only a power of two numbers every NPU.
    if (impl !== 'direct' && (g.dims[d] & (g.dims[d] - 1)) !== 0) return `${impl} on a power-of-two dimension (dimension ${d} has ${g.dims[d]} NPUs)`;
    // DoubleBinaryTreeAllReduce always reduces the whole chunk: in a reduce-scatter or allgather phase it would be no such phase.
    if (impl === 'doubleBinaryTree' && g.dims[d] > 1 && phasesOf(ctx.collective, g.dims, ctx.params.opt as string).some(([j, kind]) => j === d && kind !== 'allreduce')) {
      return `doubleBinaryTree where ASTRA-sim runs an allreduce phase: allreduce with opt=baseline, or on the last dimension (dimension ${d} has a ${ctx.collective === 'allreduce' ? 'reduce-scatter and allgather phase' : `${ctx.collective} phase`}; ASTRA-sim's DoubleBinaryTreeAllReduce reduces the whole chunk there)`;
    }
  }
  const unit = unitOf(ctx);
  const chunks = ctx.params.splits as number;
  const perBlock = ctx.collective === 'allgather' || ctx.collective === 'alltoall';
  const elements = perBlock ? ctx.size / unit : ctx.size / unit / geometryOf(ctx).ranks;
  if (elements < chunks) return `a size of at least splits (${chunks}) elements per ${ctx.collective === 'allgather' ? 'rank' : 'block'}`;
  // halvingDoubling and direct run on helper streams of each chunk (the extra chunk included).
  const streams = (chunks + 1) * (1 + helperStreams(ctx, g));
  if (streams > MAX_STREAMS) return `at most ${MAX_STREAMS} streams per rank: (splits + 1) × (1 + ${helperStreams(ctx, g)} helper streams of ${IMPL_KEYS.filter((_, d) => implementationOf(ctx, d) !== 'ring').join(', ')}) = ${streams}`;
  return undefined;
}

/** Tags of the queue tokens and the stream join, above every chunk's phase tags (chunks × phases < 256 × 16). */
const MAX_QUEUE = 256 * 16;
const TOKEN_TAG = 1 << 20;
const JOIN_TAG = 1 << 26;
/** Tags of directW's go signals (onWindowSlots): one per (phase, round, peer offset). */
const GO_TAG = 1 << 27;
/** Tags of the signals between a chunk's two streams (halvingDoubling): phase tags (< 2^12) × 64 below the tokens. */
const SIDE_TAG = 1 << 19;

const SOURCE = 'ASTRA-sim native collectives (astra-sim @ 518bd513, Sys.cc generate_collective; ring, halvingDoubling, direct, doubleBinaryTree per dimension)';
const SUPPORTS_TEXT = 'an astra: network, torus or mesh, one rank per NPU in its order';

/** Chunk c's tmp buffer for ring receives (one per chunk: chunks run at once), shared by every group. */
function tmpBuffers(b: ScheduleBuilder, bytes: number): (c: number) => number {
  const made: number[] = [];
  return (c) => (made[c] ??= b.tmpBuffer(`tmp${c}`, bytes));
}

/** The region [offset, offset + bytes) of `buf`. */
const span = (b: ScheduleBuilder, [buf, offset, bytes]: readonly [number, number, number]): number => b.region(buf, offset, bytes);

/** Registers `astra` for one collective: the fields all four share, and its build over the group geometry. */
function registerAstra(collective: CollectiveKind, description: string, build: (ctx: AlgorithmContext, g: Geometry, newBuilder: (overrides?: Partial<BuilderInit>) => ScheduleBuilder) => Schedule, extra: Partial<Algorithm> = {}): void {
  registerAlgorithm({ name: 'astra', collective, description, supportsText: SUPPORTS_TEXT, source: SOURCE, params: PARAMS, supports, ...extra, build: (ctx, newBuilder) => build(ctx, geometryOf(ctx), newBuilder) });
}

registerAstra('allreduce', "ASTRA-sim's multi-dimensional allreduce: chunks, reduce-scatter down the dimensions, allreduce on the last, allgather back (each dimension's implementation: ring by default)", (ctx, g, newBuilder) => {
  const b = builderFor(ctx, g, newBuilder);
  const unit = unitOf(ctx);
  const splits = ctx.params.splits as number;
  // An extra chunk too small for a block per rank is left out (it would cost next to nothing).
  const extraBytes = extraChunkBytes(ctx, ctx.size, unit);
  const extra = extraBytes >= g.ranks * unit ? extraBytes : 0;
  const extraBuf = extra > 0 ? b.tmpBuffer('extra', extra) : -1;
  const bounds = cut(0, ctx.size, splits, unit);
  const chunk = (c: number): readonly [number, number, number] => (c < splits ? [RECV, bounds[c], bounds[c + 1] - bounds[c]] : [extraBuf, 0, extra]);
  const blocks = Array.from({ length: splits + (extra > 0 ? 1 : 0) }, (_, c) => cut(chunk(c)[1], chunk(c)[1] + chunk(c)[2], g.ranks, unit));
  const place: BlockPlace = (c, r) => [chunk(c)[0], blocks[c][r], blocks[c][r + 1] - blocks[c][r]];
  // A tree node receives both children's chunks before reducing them (doubleBinaryTree): two chunks of tmp.
  const trees = IMPL_KEYS.some((_, d) => implementationOf(ctx, d) === 'doubleBinaryTree') ? 2 : 1;
  // direct's reduce-scatter receives n − 1 segments of its own size: with uneven blocks up to g.ranks elements beyond the chunk.
  const tmpOf = tmpBuffers(b, trees * Math.max(bounds[1] - bounds[0], extra) + g.ranks * unit);
  for (const offset of groupOffsets(ctx, g)) {
    const copyIn = (c: number, stream: number): void => {
      for (let r = offset; r < offset + g.ranks; r++) b.copy(r, b.region(SEND, c < splits ? bounds[c] : 0, chunk(c)[2]), span(b, chunk(c)), stream);
    };
    emitChunks(b, ctx, g, offset, place, blocks.length, tmpOf, copyIn);
  }
  return b.finish();
});

registerAstra('reduce-scatter', "ASTRA-sim's multi-dimensional reduce-scatter: chunks, one reduce-scatter per dimension, dimension 0 first (each dimension's implementation: ring by default)", (ctx, g, newBuilder) => {
  const b = builderFor(ctx, g, newBuilder);
  const unit = unitOf(ctx);
  const splits = ctx.params.splits as number;
  // Block r is [r·B, (r+1)·B) of the buffer, so that rank r ends with it; chunk c is piece c of every block.
  const blockBytes = ctx.size / g.ranks;
  const pieces = cut(0, blockBytes, splits, unit);
  const extraPiece = Math.floor(extraChunkBytes(ctx, ctx.size, unit) / g.ranks / unit) * unit;
  const acc = b.tmpBuffer('acc', ctx.size);
  const extra = extraPiece > 0 ? b.tmpBuffer('extra', g.ranks * extraPiece) : -1;
  const place: BlockPlace = (c, r) => (c < splits ? [acc, r * blockBytes + pieces[c], pieces[c + 1] - pieces[c]] : [extra, r * extraPiece, extraPiece]);
  const all = Array.from({ length: g.ranks }, (_, r) => r);
  const chunks = splits + (extraPiece > 0 ? 1 : 0);
  const tmpOf = tmpBuffers(b, g.ranks * Math.max(pieces[1] - pieces[0], extraPiece));
  for (const offset of groupOffsets(ctx, g)) {
    const copyIn = (c: number, stream: number): void => {
      const from = c < splits ? blocksRegion(b, all, (q) => [SEND, place(c, q)[1], place(c, q)[2]]) : b.region(SEND, 0, g.ranks * extraPiece);
      for (let r = offset; r < offset + g.ranks; r++) b.copy(r, from, blocksRegion(b, all, (q) => place(c, q)), stream);
    };
    emitChunks(b, ctx, g, offset, place, chunks, tmpOf, copyIn);
    joinStreams(b, all.map((r) => offset + r), chunks, JOIN_TAG);
    for (const r of all) b.copy(offset + r, b.region(acc, r * blockBytes, blockBytes), b.region(RECV, 0, blockBytes), 0);
  }
  return b.finish();
});

registerAstra('allgather', "ASTRA-sim's multi-dimensional allgather: chunks, one allgather per dimension, the last dimension first (each dimension's implementation: ring by default)", (ctx, g, newBuilder) => {
  const b = builderFor(ctx, g, newBuilder);
  const splits = ctx.params.splits as number;
  const pieces = cut(0, ctx.size, splits, 1);
  const extraPiece = extraChunkBytes(ctx, ctx.size, 1);
  const extra = extraPiece > 0 ? b.tmpBuffer('extra', g.ranks * extraPiece) : -1;
  const place: BlockPlace = (c, r) => (c < splits ? [RECV, r * ctx.size + pieces[c], pieces[c + 1] - pieces[c]] : [extra, r * extraPiece, extraPiece]);
  for (const offset of groupOffsets(ctx, g)) {
    const copyIn = (c: number, stream: number): void => {
      for (let r = 0; r < g.ranks; r++) b.copy(offset + r, b.region(SEND, c < splits ? pieces[c] : 0, place(c, r)[2]), span(b, place(c, r)), stream);
    };
    emitChunks(b, ctx, g, offset, place, splits + (extraPiece > 0 ? 1 : 0), () => -1, copyIn);
  }
  return b.finish();
});

registerAstra('alltoall', "ASTRA-sim's multi-dimensional all-to-all: chunks, one ring relay (or direct exchange) per dimension, dimension 0 first", (ctx, g, newBuilder) => {
  // Within groups (dims=L) a rank's send buffer, ASTRA-sim's comm_size, is cut into the group's
  // blocks: ASTRA-sim's message is comm_size / (the group's NPUs), not comm_size / P.
  const block = (ctx.size * ctx.ranks) / g.ranks;
  const b = builderFor(ctx, g, newBuilder, block);
  const splits = ctx.params.splits as number;
  // Piece c of every block is chunk c (ASTRA-sim's chunk of the whole send buffer, msg = chunk / P).
  // Along dimension j, a rank's segment for coordinate v is every slot q with q_j = v: slots are
  // indexed by the destination's coordinates not yet crossed and the source's ones already
  // crossed, so each phase moves the segment for v to the rank of coordinate v, where it lands in
  // the slots of the sender's coordinate, and RECV ends indexed by source.
  const pieces = cut(0, block, splits, 1);
  const extraPiece = Math.floor(extraChunkBytes(ctx, g.ranks * block, 1) / g.ranks);
  const phases = phasesOf('alltoall', g.dims, 'baseline').length;
  // Each phase reads what the last one wrote (a relay cannot work in place: a segment arrives
  // before the rank has sent the one in its slots): two work buffers take turns between SEND and RECV;
  // ASTRA-sim's extra chunk goes between two scratch buffers.
  const work = phases > 1 ? [b.tmpBuffer('work0', g.ranks * block), b.tmpBuffer('work1', g.ranks * block)] : [];
  const extra = extraPiece > 0 ? [b.tmpBuffer('extra0', g.ranks * extraPiece), b.tmpBuffer('extra1', g.ranks * extraPiece)] : [];
  const bufferOf = (p: number, side: 'from' | 'to'): number => (side === 'from' ? (p === 0 ? SEND : work[(p - 1) % 2]) : p === phases - 1 ? RECV : work[p % 2]);
  const relayPlace = (p: number, c: number, r: number, side: 'from' | 'to'): readonly [number, number, number] =>
    c < splits ? [bufferOf(p, side), r * block + pieces[c], pieces[c + 1] - pieces[c]] : [extra[side === 'from' ? 0 : 1], r * extraPiece, extraPiece];
  const place: BlockPlace = (c, r) => relayPlace(0, c, r, 'from');
  const tmpOf = tmpBuffers(b, maxOf(g.dims.map((n) => g.ranks / n), 0) * Math.max(pieces[1] - pieces[0], extraPiece));
  for (const offset of groupOffsets(ctx, g)) {
    const copyIn = (c: number, stream: number): void => {
      // One rank: no phase, its own block stays.
      if (phases === 0 && c < splits) b.copy(offset, b.region(SEND, pieces[c], pieces[c + 1] - pieces[c]), b.region(RECV, pieces[c], pieces[c + 1] - pieces[c]), stream);
    };
    emitChunks(b, ctx, g, offset, place, splits + (extraPiece > 0 ? 1 : 0), tmpOf, copyIn, relayPlace);
  }
  return b.finish();
}, { comparedWhenNamed: "ASTRA-sim's all-to-all, reproduced for its timing (a relay of P_d(P_d-1)/2 steps per dimension): compared when named (--include astra)" });
