/**
 * Seed 001's communication control unit (通信制御部; JP 2020-046713, spec/seed001_fullmesh.md §3):
 * per communication it chooses direct links only, 1-hop links only, or both, and the number K of
 * turnaround nodes, from the data size and the state of every link, which it keeps in a
 * communication management table (図17) and a link management table (図18).
 *
 * - `policy: 'max-K'` is the 3rd-embodiment flow (図19–21, 26): 1-hop links only with every
 *   turnaround node free (K at its maximum), otherwise the communication waits.
 * - `policy: 'variable-K'` is the 6th embodiment (図42): start with whatever links are free, K
 *   between `kMin` and `kMax` ([0126]).
 * - `mainNode` is the 1st embodiment (図4A/4B, 付記9): one node decides for all and sends each
 *   started communication a communication instruction (one entry per send and receive link).
 *
 * The 1-hop decision (S215/S425) compares predicted times, as claim 6 and F02 ([0022]) say:
 * direct T0 + S/B against the 1-hop form's T1 + rounds·S/(paths·B) (spec §8). This is the
 * document's printed inequality with its direction turned (">" where "<" is printed, spec §7.1):
 * e.g. 1-to-1 over N−2 turnarounds and the direct link breaks even at (N−1)/(N−2)·B·(T1−T0), the
 * printed (K−1)/(K−2) with K read as N; reduce over K turnarounds at K/(K−2)·B·(T1−T0), which also
 * says what the printed formula leaves open for K ≤ 2 (1-hop never pays off). Ties go to direct
 * only (fewer links held). Every packet carries the 100-bit control header of 図10 ([0051]), so
 * the 1-hop forms move S·p/(p − h) bits; the related full mesh (図47) has no such header.
 *
 * Platform-neutral: typed arrays for the link table, no I/O.
 */
import { InputError } from '../util/errors.js';

/** Communication types of the management table's 通信種類 column (1155-1). */
export const CONTROL_COMM_TYPES = ['one-to-one', 'multicast', 'reduce', 'allreduce', 'scatter', 'gather', 'alltoall', 'allgather'] as const;
export type ControlCommType = (typeof CONTROL_COMM_TYPES)[number];

/** The three choices of claim 1. */
export type LinkChoice = 'direct' | 'one-hop' | 'both';

export interface ControlUnitOptions {
  /** Compute nodes N (claim 8: N ≥ 3). */
  readonly nodes: number;
  /** Per-link bandwidth B, bytes per second. */
  readonly bandwidth: number;
  /** Direct-link latency T0, seconds (2 µs, [0057]). */
  readonly t0: number;
  /** 1-hop latency T1, seconds (4 µs through memory, 2.1 µs in the switch, 2.4 µs with the reduce unit). */
  readonly t1: number;
  /** T1 of reduce and allreduce, whose turnaround computes (4 µs through memory, [0100]); default t1. */
  readonly t1Reduce?: number;
  readonly policy?: 'max-K' | 'variable-K';
  /** Allowed range of K for variable-K ([0126]); defaults 1 and the type's maximum. */
  readonly kMin?: number;
  readonly kMax?: number;
  /** Control header per packet, bits (100, [0051]); 0 leaves it out. */
  readonly headerBits?: number;
  /** Packet duration on the link, seconds (about 50 ns, [0051]). */
  readonly packetSeconds?: number;
  /** The 1st embodiment's main node (付記9): it decides for every node. */
  readonly mainNode?: number;
}

/** One row of the communication management table (図17): the MPI parameters that matter here. */
export interface Communication {
  readonly type: ControlCommType;
  /** The sender (1155-2); the root for multicast, scatter, reduce and gather (reduce's receiver). */
  readonly sender: number;
  /** The receiver (1155-3) for 1-to-1; unused otherwise. */
  readonly receiver?: number;
  /** The communicator (1155-4): the nodes taking part; every node when absent (WORLD). */
  readonly members?: readonly number[];
  /** データ個数 (1155-7) and データ精度 in bytes (1155-8): the size is their product. */
  readonly count: number;
  readonly precision: number;
}

/** What the link verification (図21 / 図42) decided for a communication. */
export interface ControlDecision {
  readonly start: boolean;
  readonly choice: LinkChoice;
  /** Turnaround nodes (0 when direct only), in the order pieces go to them ([0108]). */
  readonly K: number;
  readonly turnarounds: readonly number[];
  /** Direct links used by a 1-to-1 transfer with the 1-hop links (L of 付記15). */
  readonly L: number;
  /** Every ordered link [from, to] of the communication link group. */
  readonly links: ReadonlyArray<readonly [number, number]>;
  /** Predicted seconds of the options the unit compared (undefined: not available). */
  readonly predicted: { readonly direct?: number; readonly oneHop?: number };
  /** The step of the flowchart that settled it, e.g. "S219 direct only (type)". */
  readonly step: string;
}

export type CommState = 'communicating' | 'waiting';

export interface CommRow {
  /** Communication management number (1155-0), 10 bits in the header (up to 1024, [0047]). */
  readonly id: number;
  readonly comm: Communication;
  state: CommState;
  decision: ControlDecision;
}

/** Entries of the main node's communication instruction (F03): per node, the links it sends and receives on. */
export interface CommInstruction {
  readonly id: number;
  readonly perNode: ReadonlyArray<{ readonly node: number; readonly send: readonly number[]; readonly recv: readonly number[] }>;
  /** Send plus receive link entries (≈ 2N for one transfer, [0029]). */
  readonly entries: number;
}

/** The control header of 図10 for N nodes: field widths in bits ([0047]–[0050]). */
export function controlHeaderFields(n: number): { management: number; step: number; linkInfo: number; processId: number; total: number } {
  const f = { management: 10, step: 1, linkInfo: n - 1, processId: 32 };
  return { ...f, total: f.management + f.step + f.linkInfo + f.processId };
}

const MAX_COMMUNICATIONS = 1024; // 10-bit communication management number, [0047]

export class ControlUnit {
  readonly n: number;
  readonly policy: 'max-K' | 'variable-K';
  /** Link management table (図18): usage[from·N + to] = communication id + 1, 0 when unused. */
  readonly usage: Int32Array;
  /** How each used link serves: 1 direct, 2 first hop, 3 second hop (the drawing's "(direct)"/"(1-hop)"). */
  readonly role: Uint8Array;
  private readonly rows: CommRow[] = [];
  private nextId = 0;
  readonly instructions: CommInstruction[] = [];

  constructor(readonly options: ControlUnitOptions) {
    const n = options.nodes;
    if (!Number.isInteger(n) || n < 3) throw new InputError('control.nodes', n, 'an integer >= 3 (claim 8)');
    if (n > MAX_COMMUNICATIONS) throw new InputError('control.nodes', n, `at most ${MAX_COMMUNICATIONS}`);
    if (!(options.bandwidth > 0)) throw new InputError('control.bandwidth', options.bandwidth, 'a bandwidth > 0');
    if (!(options.t0 >= 0) || !(options.t1 >= 0)) throw new InputError('control.latency', `${options.t0}/${options.t1}`, 'T0 and T1 >= 0');
    if (options.mainNode !== undefined && !(options.mainNode >= 0 && options.mainNode < n)) throw new InputError('control.main-node', options.mainNode, `a node 0..${n - 1}`);
    this.n = n;
    this.policy = options.policy ?? 'max-K';
    this.usage = new Int32Array(n * n);
    this.role = new Uint8Array(n * n);
  }

  /** The communication management table, in communication order (通信順). */
  table(): readonly CommRow[] {
    return this.rows;
  }

  /** Links in use as "from-to" names (0-based), like the drawing's link column. */
  busyLinks(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.usage.length; i++) if (this.usage[i]) out.push(`${Math.floor(i / this.n)}-${i % this.n}`);
    return out;
  }

  /** Marks a link busy from outside (another program's traffic, a fault): the unit will not use it. */
  occupy(from: number, to: number): void {
    this.usage[from * this.n + to] = -1;
  }

  /** Payload fraction left by the control header: (p − h)/p with p bits per packet. */
  payloadFraction(): number {
    const h = this.options.headerBits ?? 100;
    if (h === 0) return 1;
    const p = this.options.bandwidth * 8 * (this.options.packetSeconds ?? 50e-9);
    if (!(p > h)) throw new InputError('control.header-bits', h, `fewer than the ${p} bits of one packet`);
    return (p - h) / p;
  }

  /** 図20: a new communication (S201 append; S202/S203 FIFO behind a waiting row; S204–S210). */
  submit(comm: Communication): CommRow {
    this.check(comm);
    if (this.rows.length >= MAX_COMMUNICATIONS) throw new InputError('control.communications', this.rows.length + 1, `at most ${MAX_COMMUNICATIONS} (10-bit management number)`);
    const id = this.nextId++ % MAX_COMMUNICATIONS;
    const previous = this.rows[this.rows.length - 1];
    const row: CommRow = { id, comm, state: 'waiting', decision: this.verify(comm) };
    this.rows.push(row);
    if (previous?.state === 'waiting') {
      row.decision = { ...row.decision, start: false, step: `S203 waiting behind communication ${previous.id}` };
    } else if (row.decision.start) this.begin(row);
    return row;
  }

  /**
   * 図26: communication `id` completed (S261); waiting rows are retried in communication order
   * (S262–S271). Reading of the open point (spec §3.5): the pass stops at the first row that still
   * cannot start, so no communication overtakes an earlier one, as on arrival (S203).
   */
  complete(id: number): CommRow[] {
    const at = this.rows.findIndex((r) => r.id === id);
    if (at < 0 || this.rows[at].state !== 'communicating') throw new InputError('control.complete', id, 'a communicating communication number');
    for (let i = 0; i < this.usage.length; i++) {
      if (this.usage[i] === id + 1) {
        this.usage[i] = 0;
        this.role[i] = 0;
      }
    }
    this.rows.splice(at, 1);
    const started: CommRow[] = [];
    for (const row of this.rows) {
      if (row.state !== 'waiting') continue;
      row.decision = this.verify(row.comm);
      if (!row.decision.start) break;
      this.begin(row);
      started.push(row);
    }
    return started;
  }

  /** Link verification and start decision: 図21 (max-K) or 図42 (variable-K), on the current link table. */
  verify(comm: Communication): ControlDecision {
    this.check(comm);
    const members = this.members(comm);
    const size = comm.count * comm.precision;
    const direct = this.directLinks(comm, members);
    const directFree = direct.every(([a, b]) => this.free(a, b));
    const tDirect = this.options.t0 + size / this.options.bandwidth;
    const none = { K: 0, turnarounds: [], L: 0 } as const;
    const directOnly = (step: string, start: boolean, oneHop?: number): ControlDecision => ({ start, choice: 'direct', ...none, L: comm.type === 'one-to-one' ? 1 : 0, links: direct, predicted: { direct: tDirect, oneHop }, step });
    if (!['one-to-one', 'multicast', 'reduce', 'allreduce'].includes(comm.type)) {
      return directOnly(`S219 direct only (type ${comm.type})`, directFree);
    }
    const candidates = this.candidates(comm, members);
    if (this.policy === 'max-K') {
      // 図21 S214: every 1-hop link, K at its maximum; S220–S223: start only if all are free.
      const hop = this.hopForm(comm, members, candidates, true);
      const use = hop.time < tDirect;
      const group = use ? hop.links : direct;
      const start = group.every(([a, b]) => this.free(a, b));
      return use
        ? { start, choice: hop.choice, K: hop.turnarounds.length, turnarounds: hop.turnarounds, L: hop.L, links: hop.links, predicted: { direct: tDirect, oneHop: hop.time }, step: `S218 direct + 1-hop (K = ${hop.turnarounds.length}); ${start ? 'S222 start' : 'S223 wait'}` }
        : directOnly(`S217 direct only (size ${size} B); ${start ? 'S222 start' : 'S223 wait'}`, start, hop.time);
    }
    // 図42 S423: the turnarounds whose first- and second-hop links are all free, within [kMin, kMax].
    const usable = candidates.filter((t) => this.hopLinksOf(comm, members, t).every(([a, b]) => this.free(a, b)));
    const kMax = Math.min(this.options.kMax ?? usable.length, usable.length);
    const hopOk = kMax >= (this.options.kMin ?? 1) && kMax > 0;
    const hop = hopOk ? this.hopForm(comm, members, usable.slice(0, kMax), directFree) : undefined;
    if (!hop && !directFree) return directOnly('S427 wait (neither direct nor 1-hop links free)', false);
    if (!hop) return directOnly('S426 direct only (no usable turnaround)', true);
    const take = { start: true, choice: hop.choice, K: hop.turnarounds.length, turnarounds: hop.turnarounds, L: hop.L, links: hop.links, predicted: { direct: tDirect, oneHop: hop.time } };
    if (!directFree) return { ...take, step: `S426 1-hop only (direct links busy), K = ${hop.turnarounds.length}` };
    return hop.time < tDirect ? { ...take, step: `S425/S429 direct + 1-hop, K = ${hop.turnarounds.length}` } : directOnly(`S425/S430 direct only (size ${size} B)`, true, hop.time);
  }

  /** The 1-hop form over the given turnarounds: its links, choice and predicted time (spec §8). */
  private hopForm(comm: Communication, members: readonly number[], turnarounds: readonly number[], withDirect: boolean): { links: Array<readonly [number, number]>; choice: LinkChoice; turnarounds: number[]; L: number; time: number } {
    const size = comm.count * comm.precision;
    const B = this.options.bandwidth * this.payloadFraction();
    const links = new Map<number, readonly [number, number]>();
    const add = (a: number, b: number): void => {
      if (a !== b) links.set(a * this.n + b, [a, b]);
    };
    for (const t of turnarounds) for (const [a, b] of this.hopLinksOf(comm, members, t)) add(a, b);
    const K = turnarounds.length;
    const t1 = comm.type === 'reduce' || comm.type === 'allreduce' ? (this.options.t1Reduce ?? this.options.t1) : this.options.t1;
    const L = comm.type === 'one-to-one' && withDirect ? 1 : 0;
    if (L) add(comm.sender, comm.receiver!);
    // A turnaround that is itself an end of the transfer turns a 1-hop path into a direct link.
    let usesDirect: boolean;
    let time: number;
    switch (comm.type) {
      case 'one-to-one':
        usesDirect = L === 1;
        time = t1 + size / ((K + L) * B);
        break;
      case 'multicast':
        // 3rd embodiment (sender among the turnarounds): each sender link carries its piece and the
        // sender's own piece, 2S/N; 6th: S/K per link, the forwards overlapping (cut-through).
        usesDirect = turnarounds.includes(comm.sender);
        time = t1 + ((usesDirect ? 2 : 1) * size) / (K * B);
        break;
      default:
        // reduce/allreduce: all-to-all of S/K pieces, then the results (two rounds of S/K).
        usesDirect = comm.type === 'allreduce' || turnarounds.includes(comm.sender);
        time = t1 + (2 * size) / (K * B);
    }
    return { links: [...links.values()], choice: usesDirect ? 'both' : 'one-hop', turnarounds: [...turnarounds], L, time };
  }

  /** Candidate turnaround nodes in [0108] order (lowest number first, counted from the sender). */
  private candidates(comm: Communication, members: readonly number[]): number[] {
    const order = Array.from({ length: this.n }, (_, i) => (comm.sender + i) % this.n);
    switch (comm.type) {
      case 'one-to-one':
        return order.filter((t) => t !== comm.sender && t !== comm.receiver);
      case 'multicast':
        // 3rd embodiment: every node of the communicator, the sender first (K = N); 6th: the sender excluded.
        return this.policy === 'max-K' ? order.filter((t) => members.includes(t)) : order.filter((t) => t !== comm.sender);
      default:
        return this.policy === 'max-K' ? order.filter((t) => members.includes(t)) : order;
    }
  }

  /** The first- and second-hop links turnaround t needs (図42 S423's table). */
  private hopLinksOf(comm: Communication, members: readonly number[], t: number): Array<readonly [number, number]> {
    const out: Array<readonly [number, number]> = [];
    const push = (a: number, b: number): void => {
      if (a !== b) out.push([a, b]);
    };
    switch (comm.type) {
      case 'one-to-one':
        push(comm.sender, t);
        push(t, comm.receiver!);
        break;
      case 'multicast':
        push(comm.sender, t);
        for (const r of members) if (r !== comm.sender && r !== t) push(t, r);
        break;
      case 'reduce':
        for (const y of members) push(y, t);
        push(t, comm.sender);
        break;
      default:
        for (const y of members) push(y, t);
        for (const r of members) push(t, r);
    }
    return out;
  }

  private directLinks(comm: Communication, members: readonly number[]): Array<readonly [number, number]> {
    const out: Array<readonly [number, number]> = [];
    const s = comm.sender;
    switch (comm.type) {
      case 'one-to-one':
        out.push([s, comm.receiver!]);
        break;
      case 'multicast':
      case 'scatter':
        for (const r of members) if (r !== s) out.push([s, r]);
        break;
      case 'reduce':
      case 'gather':
        for (const r of members) if (r !== s) out.push([r, s]);
        break;
      default:
        for (const a of members) for (const b of members) if (a !== b) out.push([a, b]);
    }
    return out;
  }

  private members(comm: Communication): number[] {
    return comm.members ? [...comm.members] : Array.from({ length: this.n }, (_, i) => i);
  }

  private free(a: number, b: number): boolean {
    return this.usage[a * this.n + b] === 0;
  }

  /** S206–S209: write the links into the link table, record the main node's instruction, start. */
  private begin(row: CommRow): void {
    const d = row.decision;
    const hopTargets = new Set(d.turnarounds);
    for (const [a, b] of d.links) {
      const i = a * this.n + b;
      this.usage[i] = row.id + 1;
      this.role[i] = d.choice === 'direct' ? 1 : hopTargets.has(b) ? 2 : hopTargets.has(a) ? 3 : 1;
    }
    row.state = 'communicating';
    if (this.options.mainNode !== undefined) {
      const perNode = Array.from({ length: this.n }, (_, node) => ({ node, send: [] as number[], recv: [] as number[] }));
      for (const [a, b] of d.links) {
        perNode[a].send.push(b);
        perNode[b].recv.push(a);
      }
      const used = perNode.filter((x) => x.send.length + x.recv.length > 0);
      for (const x of used) {
        x.send.sort((p, q) => p - q);
        x.recv.sort((p, q) => p - q);
      }
      this.instructions.push({ id: row.id, perNode: used, entries: used.reduce((s, x) => s + x.send.length + x.recv.length, 0) });
    }
  }

  private check(comm: Communication): void {
    if (!CONTROL_COMM_TYPES.includes(comm.type)) throw new InputError('control.type', comm.type, CONTROL_COMM_TYPES.join(', '));
    const node = (field: string, v: number | undefined): void => {
      if (v === undefined || !Number.isInteger(v) || v < 0 || v >= this.n) throw new InputError(field, v, `a node 0..${this.n - 1}`);
    };
    node('control.sender', comm.sender);
    if (comm.type === 'one-to-one') {
      node('control.receiver', comm.receiver);
      if (comm.receiver === comm.sender) throw new InputError('control.receiver', comm.receiver, 'a node other than the sender');
    }
    for (const m of comm.members ?? []) node('control.members', m);
    if (!(comm.count >= 0) || !(comm.precision > 0)) throw new InputError('control.size', `${comm.count}×${comm.precision}`, 'a count >= 0 and a precision > 0 bytes');
  }
}
