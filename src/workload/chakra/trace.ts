/**
 * A whole Chakra workload: one trace per rank, checked as a whole before anything is timed:
 * dependencies form a DAG in every file, every collective's members agree on its type and size,
 * every point-to-point send has its receive, and process groups name existing ranks.
 */
import { InputError } from '../../util/errors.js';
import { traceError, type ChakraCollective, type ChakraNode, type ChakraRankTrace } from './read.js';

/** Ranks of each process group by name; "world" (every rank) is implicit. */
export type ProcessGroups = ReadonlyMap<string, readonly number[]>;

/** One collective as the ranks of its communicator issue it. */
export interface ChakraCollectiveInstance {
  /** Position in the workload (tags and reports use it). */
  readonly index: number;
  readonly group: string;
  /** Global ranks of the communicator, in group-rank order. */
  readonly ranks: readonly number[];
  /** The k-th collective of this group. */
  readonly sequence: number;
  readonly collective: ChakraCollective;
  readonly bytes: number;
  /** Group-local root (rooted collectives). */
  readonly root: number;
  /** Node id of this collective on each member, in `ranks` order. */
  readonly nodeIds: readonly number[];
}

export interface ChakraTrace {
  readonly ranks: readonly ChakraRankTrace[];
  readonly processGroups: ProcessGroups;
  /** Per rank: node indices (into `ranks[r].nodes`) in a topological order, smallest id first among ready nodes. */
  readonly order: readonly Int32Array[];
  /** Per rank: dependencies as node indices (data and control, those present in the file). */
  readonly deps: readonly (readonly Int32Array[])[];
  /** Dependencies on node ids absent from their file, ignored (PyTorch-converted traces have them). */
  readonly danglingDeps: number;
  /** Nodes listed among their own dependencies, ignored. */
  readonly selfDeps: number;
  /** Which dependencies were read. */
  readonly dependencyKinds: DependencyKinds;
  readonly collectives: readonly ChakraCollectiveInstance[];
  /** Per rank: node index → collective instance index, -1 when the node is not a timed collective. */
  readonly collectiveOf: readonly Int32Array[];
}

/** Whether a node is a collective Meshwork times: a COMM_COLL with comm_type (CPU-side launches have none). */
export function isTimedCollective(n: ChakraNode): boolean {
  return n.kind === 'coll' && n.collective !== undefined;
}

/**
 * Process groups from PyTorch's metadata node (its inputs' values: a list of `{pg_name, ranks}`;
 * empty ranks mean every rank), as ASTRA-sim reads them.
 */
export function processGroupsFromMetadata(rank: ChakraRankTrace, numRanks: number): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const n of rank.nodes) {
    if (n.kind !== 'metadata' || !n.inputsValues) continue;
    // PyTorch writes a Python repr: the JSON list inside the outer brackets and quotes.
    const text = n.inputsValues.trim();
    const inner = text.startsWith("['") || text.startsWith('["') ? text.slice(2, -2) : text;
    let parsed: unknown;
    try {
      parsed = JSON.parse(inner);
    } catch {
      continue; // a metadata node that is not a process-group list
    }
    if (!Array.isArray(parsed)) continue;
    for (const item of parsed as Array<{ pg_name?: unknown; ranks?: unknown }>) {
      if (item === null || typeof item !== 'object' || item.pg_name === undefined) continue;
      const ranks = Array.isArray(item.ranks) ? (item.ranks as unknown[]) : [];
      groups.set(String(item.pg_name), checkGroupRanks(ranks.length === 0 ? [...Array(numRanks).keys()] : ranks, numRanks, `${rank.file}: node ${n.id}: inputs.values pg ${String(item.pg_name)} ranks`));
    }
  }
  return groups;
}

/** ASTRA-sim's communicator-group file: `{"1": [0, 1, 2, 3], ...}`. */
export function parseCommGroups(json: unknown, numRanks: number, field = 'comm-groups'): Map<string, number[]> {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new InputError(field, json, 'an object of group name → list of ranks, e.g. {"1": [0, 1]}');
  const groups = new Map<string, number[]>();
  for (const [name, ranks] of Object.entries(json as Record<string, unknown>)) {
    if (!Array.isArray(ranks)) throw new InputError(`${field}.${name}`, ranks, 'a list of ranks');
    groups.set(name, checkGroupRanks(ranks as unknown[], numRanks, `${field}.${name}`));
  }
  return groups;
}

function checkGroupRanks(ranks: unknown[], numRanks: number, field: string): number[] {
  const seen = new Set<number>();
  for (const r of ranks) {
    if (!(typeof r === 'number' && Number.isInteger(r) && r >= 0 && r < numRanks) || seen.has(r)) {
      throw new InputError(field, r, `distinct ranks from 0 to ${numRanks - 1}`);
    }
    seen.add(r);
  }
  return ranks as number[];
}

/**
 * Topological order of one file's nodes (Kahn's algorithm, the smallest node id first among the
 * ready ones, so the order is the trace's own wherever its ids already respect the dependencies).
 * A cycle is refused, naming a node on it.
 */
function topologicalOrder(rank: ChakraRankTrace, deps: readonly Int32Array[], kinds: DependencyKinds): Int32Array {
  const n = rank.nodes.length;
  const indegree = new Int32Array(n);
  const childStart = new Int32Array(n + 1);
  for (let v = 0; v < n; v++) {
    indegree[v] = deps[v].length;
    for (const u of deps[v]) childStart[u + 1]++;
  }
  for (let v = 0; v < n; v++) childStart[v + 1] += childStart[v];
  const children = new Int32Array(childStart[n]);
  const fill = childStart.slice(0, n);
  for (let v = 0; v < n; v++) for (const u of deps[v]) children[fill[u]++] = v;
  // A binary heap of ready node indices keyed by node id.
  const heap: number[] = [];
  const id = (v: number): number => rank.nodes[v].id;
  const push = (v: number): void => {
    let i = heap.length;
    heap.push(v);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (id(heap[p]) <= id(v)) break;
      heap[i] = heap[p];
      i = p;
    }
    heap[i] = v;
  };
  const pop = (): number => {
    const top = heap[0];
    const last = heap.pop()!;
    if (heap.length > 0) {
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= heap.length) break;
        if (c + 1 < heap.length && id(heap[c + 1]) < id(heap[c])) c++;
        if (id(heap[c]) >= id(last)) break;
        heap[i] = heap[c];
        i = c;
      }
      heap[i] = last;
    }
    return top;
  };
  for (let v = 0; v < n; v++) if (indegree[v] === 0) push(v);
  const order = new Int32Array(n);
  let k = 0;
  while (heap.length > 0) {
    const v = pop();
    order[k++] = v;
    for (let c = childStart[v]; c < childStart[v + 1]; c++) if (--indegree[children[c]] === 0) push(children[c]);
  }
  if (k < n) {
    let smallest = -1;
    for (let v = 0; v < n; v++) if (indegree[v] > 0 && (smallest < 0 || id(v) < id(smallest))) smallest = v;
    const field = kinds === 'data' ? 'data_deps' : kinds === 'ctrl' ? 'ctrl_deps' : 'data_deps/ctrl_deps';
    const hint = kinds === 'both' ? ' (--deps data reads data dependencies only, as Chakra\'s original feeder; PyTorch-converted traces need it)' : '';
    throw traceError(rank.file, id(smallest), field, 'a dependency cycle', `dependencies that form a DAG${hint}`);
  }
  return order;
}

/**
 * Checks the files as one workload and matches its collectives: on each communicator ("world" by
 * default, or the node's pg_name), the k-th collective of every member is one collective, and the
 * members must agree on its type, size and root.
 */
import { DEPENDENCY_KINDS, type DependencyKinds } from './names.js';

export { DEPENDENCY_KINDS, type DependencyKinds };

export function assembleTrace(ranks: readonly ChakraRankTrace[], groups: ProcessGroups = new Map(), kinds: DependencyKinds = 'both'): ChakraTrace {
  if (!DEPENDENCY_KINDS.includes(kinds)) throw new InputError('deps', kinds, DEPENDENCY_KINDS.join(', '));
  const numRanks = ranks.length;
  ranks.forEach((r, i) => {
    if (r.rank !== i) throw new InputError('trace ranks', r.rank, `one file per rank 0 to ${numRanks - 1}, in order`);
  });
  const allGroups = new Map<string, readonly number[]>(groups);
  for (const r of ranks) for (const [k, v] of processGroupsFromMetadata(r, numRanks)) if (!allGroups.has(k)) allGroups.set(k, v);
  let danglingDeps = 0;
  let selfDeps = 0;
  const deps: Int32Array[][] = [];
  const order: Int32Array[] = [];
  for (const r of ranks) {
    const index = new Map<number, number>();
    r.nodes.forEach((n, i) => index.set(n.id, i));
    const d = r.nodes.map((n) => {
      const list: number[] = [];
      const ids = kinds === 'data' ? n.dataDeps : kinds === 'ctrl' ? n.ctrlDeps : [...n.dataDeps, ...n.ctrlDeps];
      for (const id of ids) {
        const i = index.get(id);
        // A node listed among its own dependencies (PyTorch-converted traces have them) orders nothing.
        if (id === n.id) selfDeps++;
        else if (i === undefined) danglingDeps++;
        else if (!list.includes(i)) list.push(i);
      }
      return Int32Array.from(list);
    });
    deps.push(d);
    order.push(topologicalOrder(r, d, kinds));
  }
  const { collectives, collectiveOf } = matchCollectives(ranks, order, allGroups);
  checkPointToPoint(ranks);
  return { ranks, processGroups: allGroups, order, deps, danglingDeps, selfDeps, dependencyKinds: kinds, collectives, collectiveOf };
}

function groupRanks(name: string, groups: ProcessGroups, numRanks: number): readonly number[] | undefined {
  if (name === 'world') return groups.get(name) ?? [...Array(numRanks).keys()];
  return groups.get(name);
}

function matchCollectives(ranks: readonly ChakraRankTrace[], order: readonly Int32Array[], groups: ProcessGroups) {
  const numRanks = ranks.length;
  // Per group: the members' sequences of (rank, node index).
  const perGroup = new Map<string, Map<number, number[]>>();
  for (const r of ranks) {
    for (const v of order[r.rank]) {
      const n = r.nodes[v];
      if (!isTimedCollective(n)) continue;
      const g = n.pgName ?? 'world';
      const members = groupRanks(g, groups, numRanks);
      if (members === undefined) throw traceError(r.file, n.id, 'pg_name', g, `a process group of the trace's metadata or --comm-groups (${[...groups.keys()].join(', ') || 'none given'})`);
      if (!members.includes(r.rank)) throw traceError(r.file, n.id, 'pg_name', g, `a process group that contains rank ${r.rank}`);
      let seqs = perGroup.get(g);
      if (!seqs) perGroup.set(g, (seqs = new Map()));
      const list = seqs.get(r.rank);
      if (list) list.push(v);
      else seqs.set(r.rank, [v]);
    }
  }
  const collectives: ChakraCollectiveInstance[] = [];
  const collectiveOf = ranks.map((r) => new Int32Array(r.nodes.length).fill(-1));
  for (const [g, seqs] of [...perGroup].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const members = groupRanks(g, groups, numRanks)!;
    let longest = 0;
    for (const m of members) longest = Math.max(longest, seqs.get(m)?.length ?? 0);
    for (let k = 0; k < longest; k++) {
      const first = members[0];
      const ref = ranks[first].nodes[seqs.get(first)?.[k] ?? -1];
      const nodeIds: number[] = [];
      for (const m of members) {
        const v = seqs.get(m)?.[k];
        if (v === undefined) {
          const other = ref ?? ranks[members.find((x) => seqs.get(x)?.[k] !== undefined)!].nodes[seqs.get(members.find((x) => seqs.get(x)?.[k] !== undefined)!)![k]];
          throw traceError(ranks[m].file, null, `collective ${k + 1} of group ${g}`, 'missing', `every member of group ${g} issuing it (${other.collective} of ${other.commSize ?? 0} bytes, node ${other.id} of ${ranks[members[0]].file})`);
        }
        const n = ranks[m].nodes[v];
        if (ref === undefined) continue;
        if (n.collective !== ref.collective) throw traceError(ranks[m].file, n.id, 'comm_type', n.collective, `${ref.collective}, as node ${ref.id} of ${ranks[first].file} (collective ${k + 1} of group ${g})`);
        if ((n.commSize ?? 0) !== (ref.commSize ?? 0)) throw traceError(ranks[m].file, n.id, 'comm_size', n.commSize ?? 0, `${ref.commSize ?? 0}, as node ${ref.id} of ${ranks[first].file} (collective ${k + 1} of group ${g})`);
        if ((n.root ?? 0) !== (ref.root ?? 0)) throw traceError(ranks[m].file, n.id, 'root_rank', n.root ?? 0, `${ref.root ?? 0}, as node ${ref.id} of ${ranks[first].file}`);
        nodeIds.push(n.id);
        collectiveOf[m][v] = collectives.length;
      }
      collectives.push({ index: collectives.length, group: g, ranks: members, sequence: k, collective: ref.collective!, bytes: ref.commSize ?? 0, root: ref.root ?? 0, nodeIds });
    }
  }
  return { collectives, collectiveOf };
}

/** Every COMM_SEND (src → dst, tag) has as many COMM_RECVs at dst, of the same sizes in order. */
function checkPointToPoint(ranks: readonly ChakraRankTrace[]): void {
  const numRanks = ranks.length;
  const sends = new Map<string, ChakraNode[]>();
  const recvs = new Map<string, { rank: number; node: ChakraNode }[]>();
  for (const r of ranks) {
    for (const n of r.nodes) {
      if (n.kind !== 'send' && n.kind !== 'recv') continue;
      const peerField = n.kind === 'send' ? 'comm_dst' : 'comm_src';
      const peer = n.kind === 'send' ? n.commDst : n.commSrc;
      if (peer === undefined || peer >= numRanks) throw traceError(r.file, n.id, peerField, peer, `a rank from 0 to ${numRanks - 1}`);
      const key = n.kind === 'send' ? `${r.rank}>${peer}#${n.commTag ?? 0}` : `${peer}>${r.rank}#${n.commTag ?? 0}`;
      if (n.kind === 'send') {
        const l = sends.get(key);
        if (l) l.push(n);
        else sends.set(key, [n]);
      } else {
        const l = recvs.get(key);
        if (l) l.push({ rank: r.rank, node: n });
        else recvs.set(key, [{ rank: r.rank, node: n }]);
      }
    }
  }
  for (const [key, list] of sends) {
    const src = Number(key.slice(0, key.indexOf('>')));
    const got = recvs.get(key) ?? [];
    if (got.length !== list.length) {
      const n = list[Math.min(got.length, list.length - 1)];
      throw traceError(ranks[src].file, n.id, 'comm_dst', n.commDst, `a rank that posts a matching COMM_RECV (src ${src}, tag ${n.commTag ?? 0}): ${list.length} sends, ${got.length} receives`);
    }
    for (let i = 0; i < list.length; i++) {
      if ((list[i].commSize ?? 0) !== (got[i].node.commSize ?? 0)) {
        throw traceError(ranks[got[i].rank].file, got[i].node.id, 'comm_size', got[i].node.commSize ?? 0, `${list[i].commSize ?? 0}, the size of its send (node ${list[i].id} of ${ranks[src].file})`);
      }
    }
    recvs.delete(key);
  }
  for (const [, list] of recvs) {
    const { rank, node } = list[0];
    throw traceError(ranks[rank].file, node.id, 'comm_src', node.commSrc, `a rank that posts a matching COMM_SEND (tag ${node.commTag ?? 0})`);
  }
}
