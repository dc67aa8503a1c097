/**
 * The executor: runs a schedule on real buffers with no timing and proves the collective's
 * postcondition (src/collectives/patterns.ts describes the slot encoding).
 *
 * - Matching: a recv takes the oldest pending message with its (source, destination, tag).
 *   Sends are eager: the region is read when the send executes, so a later overwrite of the
 *   source region does not change a message already sent.
 * - Never hangs: a worklist runs each (rank, stream) program until it blocks; when nothing is
 *   runnable and programs remain, that is a deadlock, reported with the blocked ops.
 * - Hazards: every input slot starts "unsent"; overwriting it with different data before any op
 *   read it, then reading it, is reported as a read of a region overwritten before it was sent.
 * - Unit-step mode (`steps: true`): synchronous one-port steps (see runSteps).
 *
 * Hand-written typed-array core (no per-op objects) because a 4,096-rank alltoall executes
 * 33.5 M ops; per-message objects exist only for messages in flight.
 */
import { InputError, LimitError } from '../util/errors.js';
import type { Topology } from '../topology/graph.js';
import { MAX_STREAMS, Schedule, alltoallvLayout, ioBytes, type Part } from './schedule.js';
import { OpKind, REDUCE_OPS, DTYPE_BYTES } from './types.js';
import { Mailbox, Payload } from './mailbox.js';
import {
  UNINIT_INT32,
  expectedElement,
  expectedOrigin,
  inputPlacement,
  inputValue,
  isMovement,
  originBlockBytes,
  outputBytes,
  reduceFn,
  tolerance,
} from './patterns.js';

export type ExecMode = 'bytes' | 'chunks';

export interface ExecuteOptions {
  /** bytes: one slot per byte (per element for reductions); chunks: one slot per gcd of all extents. Default bytes. */
  mode?: ExecMode;
  /** Synchronous one-port unit steps, with per-step transfer counts. */
  steps?: boolean;
  /** Topology, for per-switch uplink/downlink counts in step mode. */
  topology?: Topology;
  /** How many mismatches and problems to keep in detail (default 10). */
  maxDetails?: number;
  /** Largest slot count to allocate (default 2^28); above it a LimitError suggests chunk mode. */
  maxSlots?: number;
  /** Replaces the input pattern (slot k of rank r's input); the postcondition check then reports mismatches. */
  inputs?: (rank: number, slot: number) => number;
  /** Keep the final buffers for inspection (`report.buffer`). */
  keepBuffers?: boolean;
  /** Called now and then with the fraction of operations executed (progress bars; asynchronous mode only). */
  progress?: (fraction: number) => void;
  /**
   * Check the collective's postcondition (default true). false: only that every op completes
   * (no deadlock, unmatched message or out-of-bounds region), for schedules of no standard
   * collective (MSCCL's `custom`).
   */
  postcondition?: boolean;
  /**
   * Report a run of consecutive wrong slots of one rank whose expected and found data are each
   * consecutive bytes of one block as one mismatch (`slots` > 1, text `recv[0..1023] ... bytes 0..1023`):
   * a misplaced 1 KiB chunk is one line, not 1,024. Default false (one mismatch per slot). The count stays per slot.
   */
  runs?: boolean;
}

/** Operations executed between progress reports. */
const PROGRESS_OPS = 1 << 16;

export type ProblemKind = 'deadlock' | 'unmatched' | 'hazard' | 'bounds' | 'length' | 'group' | 'alignment' | 'dtype';

export interface Problem {
  kind: ProblemKind;
  message: string;
}

export interface Origin {
  rank: number;
  block: number;
  offset: number;
}

export interface Mismatch {
  rank: number;
  buffer: string;
  /** Byte offset in the buffer. */
  byte: number;
  expected: Origin | number;
  found: Origin | number | 'uninitialised';
  /** Where the found data sits in its source (for data movement). */
  text: string;
  /** Consecutive wrong slots this mismatch covers (`runs` option; absent: one). */
  slots?: number;
}

export interface RankStats {
  sentBytes: Float64Array;
  recvBytes: Float64Array;
  messagesSent: Int32Array;
  messagesRecv: Int32Array;
  barriers: Int32Array;
  hwOps: Int32Array;
  /** Peak buffer bytes: input and output buffers plus the high-water mark of each temporary. */
  peakBytes: Float64Array;
}

export interface StepReport {
  steps: number;
  /** Transfers of each step: xfer ids stepStart[t] .. stepStart[t+1]. */
  stepStart: Int32Array;
  xferSrc: Int32Array;
  xferDst: Int32Array;
  xferOp: Int32Array;
  /** Per step: most sends by one rank, most receives by one rank, most transfers out of / into one leaf switch. */
  maxSendsPerRank: Int32Array;
  maxRecvsPerRank: Int32Array;
  /** Per step: sends that waited because a destination's receive ports were taken (0 everywhere = contention-free at the nodes). */
  deferredSends: Int32Array;
  maxUpPerSwitch: Int32Array;
  maxDownPerSwitch: Int32Array;
  /** Whether the topology has leaf switches (host-up channels) to count uplinks/downlinks for. */
  switchCounts: boolean;
}

export interface ExecutionReport {
  pass: boolean;
  mode: ExecMode;
  /** Bytes per slot. */
  granularity: number;
  problems: Problem[];
  mismatchCount: number;
  mismatches: Mismatch[];
  /** Output slots checked. */
  checkedSlots: number;
  stats: RankStats;
  messages: number;
  steps?: StepReport;
  /** With `keepBuffers`: the final slots of a rank's buffer (0 send, 1 recv, 2+ temporaries), if it was touched. */
  buffer?: (rank: number, buf: number) => Float64Array | undefined;
}

class Fatal extends Error {}

/** Most payload slots kept for reuse (16 M slots = 128 MB of Float64). */
const POOL_SLOTS = 2 ** 24;

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** Runs and verifies a schedule. Never throws for a wrong schedule; throws InputError/LimitError for unusable options. */
export function executeSchedule(s: Schedule, opts: ExecuteOptions = {}): ExecutionReport {
  return new Machine(s, opts).run();
}

class Machine {
  readonly s: Schedule;
  readonly mode: ExecMode;
  readonly G: number;
  readonly nb: number;
  readonly maxDetails: number;
  readonly problems: Problem[] = [];
  readonly slots: Array<Float64Array | undefined>;
  readonly state: Array<Uint8Array | undefined>;
  readonly clobberedBy = new Map<number, number>();
  readonly bufSlots: Float64Array;
  /** Region extents in slots, strided vectors expanded. */
  rsStart!: Int32Array;
  rsBuf!: Uint16Array;
  rsOff!: Float64Array;
  rsLen!: Float64Array;
  /**
   * Int32 copies of rsOff/rsLen for the single-buffer hot paths (read, write): integer indices keep
   * V8's copy loops on small-integer arithmetic. Valid whenever singleBuffer() holds (the region then
   * lies inside a buffer of at most maxSlots < 2^31 slots); 0 for extents beyond int32 range.
   */
  rsOffI!: Int32Array;
  rsLenI!: Int32Array;
  rsTotal!: Float64Array;
  /** The one buffer all extents of a region lie in (-1 if several), and the end of its last-reaching extent, in slots. */
  rsSingle!: Int32Array;
  rsEnd!: Float64Array;
  readonly stats: RankStats;
  readonly tmpHigh: Float64Array;
  readonly reducers: Array<(a: number, b: number) => number>;
  readonly valueMode: boolean;
  readonly uninit: number;
  readonly inputStride: number;
  readonly mail: Mailbox;
  heard: Uint32Array[] | undefined;
  messages = 0;
  readonly opts: ExecuteOptions;

  constructor(s: Schedule, opts: ExecuteOptions) {
    this.s = s;
    this.opts = opts;
    this.mode = opts.mode ?? 'bytes';
    this.nb = s.buffers.length;
    this.maxDetails = opts.maxDetails ?? 10;
    const n = s.numRanks;
    const reduction = s.parts.some((p) => !isMovement(p) && p.collective !== 'barrier');
    this.valueMode = reduction;
    const elem = DTYPE_BYTES[s.dtype];
    if (reduction && s.dtype !== 'int32' && ['bxor', 'band', 'bor'].includes(s.op)) {
      throw new InputError('op', s.op, `sum, max, min or prod for ${s.dtype} (bitwise ops need int32)`);
    }
    this.G = this.mode === 'bytes' ? (reduction ? elem : 1) : this.chunkGranularity(reduction ? elem : 1);
    this.uninit = !reduction ? 0 : s.dtype === 'int32' ? UNINIT_INT32 : Number.NaN;
    this.bufSlots = new Float64Array(n * this.nb);
    let total = 0;
    let stride = 0;
    for (let r = 0; r < n; r++) {
      for (let b = 0; b < this.nb; b++) {
        const bytes = s.bufferBytes(r, b);
        if (bytes % this.G !== 0) throw new InputError('size', bytes, `a multiple of ${this.G} bytes (the ${reduction ? 'element' : 'slot'} size) for buffer ${s.buffers[b].name}`);
        this.bufSlots[r * this.nb + b] = bytes / this.G;
        // Temporaries too: each is allocated whole on first use (a schedule file may declare any size).
        total += bytes / this.G;
      }
      const p = s.partOfRank[r];
      if (p >= 0) stride = Math.max(stride, ioBytes(s.parts[p], s.parts[p].ranks.indexOf(r)).send / this.G);
    }
    this.inputStride = Math.max(1, stride);
    const maxSlots = opts.maxSlots ?? 2 ** 28;
    if (total > maxSlots) {
      const hint = this.mode === 'bytes' ? 'use chunk-identity mode: --mode chunks' : `extents share only a ${this.G}-byte divisor; choose a size whose pieces have a larger common divisor`;
      throw new LimitError('size', `${total} slots of ${this.G} bytes in every rank's buffers`, `${maxSlots} slots in ${this.mode} mode (${hint})`);
    }
    if (!reduction && n * this.inputStride >= 2 ** 31 && s.numOps > 0 && hasHw(s)) {
      throw new LimitError('size', `${n * this.inputStride} input slots`, `2^31 slots for schedules with hw operations (ids must fit int32)`);
    }
    this.mail = new Mailbox(n);
    this.slots = new Array(n * this.nb);
    this.state = new Array(n * this.nb);
    this.stats = {
      sentBytes: new Float64Array(n),
      recvBytes: new Float64Array(n),
      messagesSent: new Int32Array(n),
      messagesRecv: new Int32Array(n),
      barriers: new Int32Array(n),
      hwOps: new Int32Array(n),
      peakBytes: new Float64Array(n),
    };
    this.tmpHigh = new Float64Array(n * this.nb);
    this.reducers = REDUCE_OPS.map((op) => reduceFn(op, reduction ? s.dtype : 'int32'));
    this.prepareRegions();
    if (s.parts.some((p) => p.collective === 'barrier')) {
      const words = Math.ceil(n / 32);
      this.heard = Array.from({ length: n }, (_, r) => {
        const h = new Uint32Array(words);
        h[r >>> 5] |= 1 << (r & 31);
        return h;
      });
    }
    this.loadInputs();
  }

  private chunkGranularity(elem: number): number {
    const s = this.s;
    let g = 0;
    for (let e = 0; e < s.extOff.length; e++) g = gcd(gcd(g, s.extOff[e]), s.extLen[e]);
    for (let r = 0; r < s.numRegions; r++) {
      if (s.regRepeat[r] > 1) g = gcd(g, s.regStride[r]);
      if (s.regInner[r] > 1) g = gcd(g, s.regInnerStride[r]);
    }
    for (const p of s.parts) {
      g = gcd(g, p.size);
      if (p.collective === 'reduce-scatter') g = gcd(g, p.size / p.ranks.length);
    }
    for (let b = 2; b < s.buffers.length; b++) g = gcd(g, s.buffers[b].bytes);
    if (g === 0) g = elem;
    if (g % elem !== 0) throw new InputError('schedule', `extents aligned to ${g} bytes`, `extents aligned to the ${s.dtype} element (${elem} bytes)`);
    return g;
  }

  private prepareRegions(): void {
    const s = this.s;
    const G = this.G;
    let count = 0;
    for (let r = 0; r < s.numRegions; r++) count += s.regionExtents(r);
    this.rsStart = new Int32Array(s.numRegions + 1);
    this.rsBuf = new Uint16Array(count);
    this.rsOff = new Float64Array(count);
    this.rsLen = new Float64Array(count);
    this.rsOffI = new Int32Array(count);
    this.rsLenI = new Int32Array(count);
    this.rsTotal = new Float64Array(s.numRegions);
    this.rsSingle = new Int32Array(s.numRegions);
    this.rsEnd = new Float64Array(s.numRegions);
    let k = 0;
    for (let r = 0; r < s.numRegions; r++) {
      this.rsStart[r] = k;
      let total = 0;
      s.forEachExtent(r, (buf, off, len) => {
        if (off % G !== 0 || len % G !== 0) {
          throw new InputError('schedule.regions', s.describeRegion(r), `extents aligned to ${G} bytes (the ${this.valueMode ? `${s.dtype} element` : 'slot'})`);
        }
        this.rsBuf[k] = buf;
        this.rsOff[k] = off / G;
        this.rsLen[k] = len / G;
        if ((off + len) / G < 2 ** 31) {
          this.rsOffI[k] = off / G;
          this.rsLenI[k] = len / G;
        }
        total += len / G;
        k++;
      });
      this.rsTotal[r] = total;
      let single = this.rsBuf[this.rsStart[r]] ?? -1;
      let end = 0;
      for (let e = this.rsStart[r]; e < k; e++) {
        if (this.rsBuf[e] !== single) single = -1;
        end = Math.max(end, this.rsOff[e] + this.rsLen[e]);
      }
      this.rsSingle[r] = k > this.rsStart[r] ? single : -1;
      this.rsEnd[r] = end;
    }
    this.rsStart[s.numRegions] = k;
  }

  private buffer(rank: number, buf: number): Float64Array {
    const i = rank * this.nb + buf;
    let a = this.slots[i];
    if (!a) {
      a = new Float64Array(this.bufSlots[i]);
      if (this.uninit !== 0) a.fill(this.uninit);
      this.slots[i] = a;
    }
    return a;
  }

  private loadInputs(): void {
    const s = this.s;
    for (const part of s.parts) {
      for (let j = 0; j < part.ranks.length; j++) {
        const r = part.ranks[j];
        const inBytes = ioBytes(part, j).send;
        if (inBytes === 0) continue;
        const { buf, byteOffset } = inputPlacement(s, part, j);
        const a = this.buffer(r, buf);
        const st = new Uint8Array(a.length);
        this.state[r * this.nb + buf] = st;
        const first = byteOffset / this.G;
        const slots = inBytes / this.G;
        st.fill(1, first, first + slots);
        const inputs = this.opts.inputs;
        if (inputs) for (let k = 0; k < slots; k++) a[first + k] = inputs(r, k);
        else if (this.valueMode) for (let k = 0; k < slots; k++) a[first + k] = inputValue(s.dtype, s.op, r, k);
        else {
          // Chunk identities: consecutive ids from the rank's base (one branch-free loop per rank).
          const base = r * this.inputStride + 1;
          for (let k = 0; k < slots; k++) a[first + k] = base + k;
        }
      }
    }
  }

  private fatal(kind: ProblemKind, message: string): never {
    this.problems.push({ kind, message });
    throw new Fatal(message);
  }

  private where(op: number): string {
    return `rank ${this.s.opRank[op]} stream ${this.s.opStream[op]} op #${op} (${this.s.describeOp(op)})`;
  }

  private checkExtent(rank: number, e: number, op: number): void {
    const cap = this.bufSlots[rank * this.nb + this.rsBuf[e]];
    const end = this.rsOff[e] + this.rsLen[e];
    if (end > cap) {
      this.fatal('bounds', `${this.where(op)}: ${this.s.buffers[this.rsBuf[e]].name}[${this.rsOff[e] * this.G}..${end * this.G - 1}] is beyond the ${cap * this.G}-byte buffer on rank ${rank}`);
    }
    if (this.rsBuf[e] >= 2) {
      const i = rank * this.nb + this.rsBuf[e];
      if (end * this.G > this.tmpHigh[i]) this.tmpHigh[i] = end * this.G;
    }
  }

  private checkRegion(region: number, op: number): void {
    if (!(region >= 0 && region < this.s.numRegions)) this.fatal('bounds', `${this.where(op)}: region ${region} does not exist`);
  }

  /** Reads a region: a number when it is one slot (no allocation), else a new array. */
  read(rank: number, region: number, op: number): Payload {
    this.checkRegion(region, op);
    const total = this.rsTotal[region];
    const e0 = this.rsStart[region];
    if (total === 1 && this.rsStart[region + 1] === e0 + 1) {
      this.checkExtent(rank, e0, op);
      const buf = this.rsBuf[e0];
      const off = this.rsOff[e0];
      const st = this.state[rank * this.nb + buf];
      if (st && st[off] !== 0) this.markRead(st, rank, buf, off, 1, op);
      return this.buffer(rank, buf)[off];
    }
    return this.readArray(rank, region, op);
  }

  /** One bounds and high-water check for a region in one buffer; true if it is (then its extents need none). */
  private singleBuffer(rank: number, region: number): boolean {
    const buf = this.rsSingle[region];
    if (buf < 0) return false;
    const i = rank * this.nb + buf;
    const end = this.rsEnd[region];
    if (end > this.bufSlots[i]) return false; // the per-extent path names the offending extent
    if (buf >= 2 && end * this.G > this.tmpHigh[i]) this.tmpHigh[i] = end * this.G;
    return true;
  }

  readArray(rank: number, region: number, op: number): Float64Array {
    this.checkRegion(region, op);
    const out = this.takeArray(this.rsTotal[region]);
    if (this.singleBuffer(rank, region)) {
      // Hot path of merged messages: many short extents of one buffer.
      const buf = this.rsSingle[region];
      const a = this.buffer(rank, buf);
      const st = this.state[rank * this.nb + buf];
      const e0 = this.rsStart[region];
      const e1 = this.rsStart[region + 1];
      const offs = this.rsOffI;
      const lens = this.rsLenI;
      if (st) for (let e = e0; e < e1; e++) this.markRead(st, rank, buf, offs[e], lens[e], op);
      copyExtentsOut(a, offs, lens, e0, e1, out);
      return out;
    }
    let k = 0;
    for (let e = this.rsStart[region]; e < this.rsStart[region + 1]; e++) {
      this.checkExtent(rank, e, op);
      const buf = this.rsBuf[e];
      const a = this.buffer(rank, buf);
      const off = this.rsOff[e];
      const len = this.rsLen[e];
      const st = this.state[rank * this.nb + buf];
      if (st) this.markRead(st, rank, buf, off, len, op);
      if (len > 32) {
        out.set(a.subarray(off, off + len), k);
        k += len;
      } else for (let i = off; i < off + len; i++) out[k++] = a[i];
    }
    return out;
  }

  /**
   * Payload arrays are recycled by length: a merged message's array is fully overwritten by the
   * next read of that length, and allocating (zeroing, then collecting) one per message was a
   * large share of a 4,096-rank verification. At most POOL_SLOTS slots are kept.
   */
  private readonly pool = new Map<number, Float64Array[]>();
  private pooledSlots = 0;

  private takeArray(length: number): Float64Array {
    const list = this.pool.get(length);
    const a = list?.pop();
    if (!a) return new Float64Array(length);
    this.pooledSlots -= length;
    return a;
  }

  /** Returns a payload nothing refers to any more (a consumed unicast message, a local op's read). */
  private recycle(payload: Payload): void {
    if (typeof payload === 'number' || this.pooledSlots + payload.length > POOL_SLOTS) return;
    const list = this.pool.get(payload.length);
    if (list) list.push(payload);
    else this.pool.set(payload.length, [payload]);
    this.pooledSlots += payload.length;
  }

  private markRead(st: Uint8Array, rank: number, buf: number, off: number, len: number, op: number): void {
    for (let i = off; i < off + len; i++) {
      if (st[i] === 2) {
        const by = this.clobberedBy.get((rank * this.nb + buf) * 2 ** 32 + i);
        const msg = `${this.where(op)} reads ${this.s.buffers[buf].name}[${i * this.G}..${(i + 1) * this.G - 1}] which ${by === undefined ? 'an earlier op' : `op #${by} (${this.s.describeOp(by)})`} overwrote before it was sent`;
        if (this.problems.filter((p) => p.kind === 'hazard').length < this.maxDetails) this.problems.push({ kind: 'hazard', message: msg });
        else this.hazardsDropped++;
        st[i] = 3;
      } else if (st[i] === 1) st[i] = 0;
    }
  }

  hazardsDropped = 0;

  /** Writes `data` into region; `combine` reduces into the current content instead (dst = dst op data). */
  write(rank: number, region: number, payload: Payload, op: number, combine?: (a: number, b: number) => number): void {
    this.checkRegion(region, op);
    const length = typeof payload === 'number' ? 1 : payload.length;
    if (length !== this.rsTotal[region]) {
      this.fatal('length', `${this.where(op)}: ${length * this.G} bytes arrive but the region holds ${this.rsTotal[region] * this.G}`);
    }
    const single = typeof payload === 'number' ? payload : 0;
    const data = typeof payload === 'number' ? undefined : payload;
    let k = 0;
    if (!combine && data && this.singleBuffer(rank, region) && !this.state[rank * this.nb + this.rsSingle[region]]) {
      // Hot path: plain store of a merged message into one buffer that holds no input.
      copyExtentsIn(data, this.rsOffI, this.rsLenI, this.rsStart[region], this.rsStart[region + 1], this.buffer(rank, this.rsSingle[region]));
      return;
    }
    for (let e = this.rsStart[region]; e < this.rsStart[region + 1]; e++) {
      this.checkExtent(rank, e, op);
      const buf = this.rsBuf[e];
      const a = this.buffer(rank, buf);
      const off = this.rsOff[e];
      const len = this.rsLen[e];
      const st = this.state[rank * this.nb + buf];
      if (!st && !combine && data) {
        // Plain store into a buffer without input to protect (the common case).
        if (len > 32) a.set(data.subarray(k, k + len), off);
        else for (let i = 0; i < len; i++) a[off + i] = data[k + i];
        k += len;
        continue;
      }
      for (let i = off; i < off + len; i++) {
        const x = data ? data[k] : single;
        const v = combine ? combine(a[i], x) : x;
        k++;
        if (st && st[i] === 1 && v !== a[i]) {
          st[i] = 2;
          this.clobberedBy.set((rank * this.nb + buf) * 2 ** 32 + i, op);
        }
        a[i] = v;
      }
    }
  }

  enqueue(src: number, dst: number, tag: number, data: Payload, op: number, step = -1): void {
    this.mail.put(src, dst, tag, data, op, step, this.heard ? this.heard[src].slice() : undefined);
    this.messages++;
  }

  /** Executes a send: one read, one message per destination. */
  doSend(op: number, step = -1): void {
    const s = this.s;
    const rank = s.opRank[op];
    const data = this.read(rank, s.dataRegion(op), op);
    const peer = s.opPeer[op];
    this.stats.sentBytes[rank] += (typeof data === 'number' ? 1 : data.length) * this.G;
    this.stats.messagesSent[rank]++;
    if (peer >= 0) this.enqueue(rank, peer, s.opTag[op], data, op, step);
    else {
      const l = -peer - 1;
      for (let i = s.destStart[l]; i < s.destStart[l + 1]; i++) this.enqueue(rank, s.destRanks[i], s.opTag[op], data, op, step);
    }
  }

  /** Completes recv `op` with message `m` (from the mailbox) and frees the message. */
  deliver(op: number, m: number): void {
    const s = this.s;
    const rank = s.opRank[op];
    const data = this.mail.payload(m);
    const length = typeof data === 'number' ? 1 : data.length;
    if (length !== this.rsTotal[s.dataRegion(op)]) {
      this.fatal('length', `${this.where(op)}: the matching message from op #${this.mail.op[m]} (${s.describeOp(this.mail.op[m])}) carries ${length * this.G} bytes, the region holds ${this.rsTotal[s.dataRegion(op)] * this.G}`);
    }
    this.write(rank, s.dataRegion(op), data, op);
    this.stats.recvBytes[rank] += length * this.G;
    this.stats.messagesRecv[rank]++;
    const heard = this.mail.heard[m];
    if (this.heard && heard) orInto(this.heard[rank], heard);
    // A multicast's one payload is shared by all its messages; only a unicast's is free now.
    const unicast = s.opPeer[this.mail.op[m]] >= 0;
    this.mail.release(m);
    if (unicast) this.recycle(data);
  }

  doLocal(op: number): void {
    const s = this.s;
    const rank = s.opRank[op];
    if (s.opKind[op] === OpKind.Copy) {
      const data = this.read(rank, s.dataRegion(op), op);
      this.write(rank, s.targetRegion(op), data, op);
      this.recycle(data);
    } else if (s.opKind[op] === OpKind.Reduce) {
      this.recycle(this.read(rank, s.targetRegion(op), op)); // the destination is read too (marks it consumed)
      const data = this.read(rank, s.dataRegion(op), op);
      this.write(rank, s.targetRegion(op), data, op, this.reducers[s.reduceOpIndex(op)]);
      this.recycle(data);
    }
  }

  // Groups (barrier and hw): arrivals per group; the k-th barrier of every participant match.
  arrived!: Int32Array;
  waiting!: number[][];
  hwAcc!: Array<Float64Array | undefined>;

  private isMember(group: number, rank: number, stream: number): boolean {
    const s = this.s;
    const key = rank * MAX_STREAMS + stream;
    let lo = s.groupStart[group];
    let hi = s.groupStart[group + 1] - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = s.groupMembers[mid];
      if (v === key) return true;
      if (v < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /** A participant arrives; returns the list of (program, op) to complete when the group is full, else undefined. */
  arrive(p: number, op: number): number[] | undefined {
    const s = this.s;
    const g = s.opPeer[op];
    const rank = s.opRank[op];
    if (!(g >= 0 && g < s.numGroups)) this.fatal('group', `${this.where(op)}: group ${g} does not exist`);
    if (!this.isMember(g, rank, s.opStream[op])) this.fatal('group', `${this.where(op)}: (rank ${rank}, stream ${s.opStream[op]}) is not a participant of group ${g}`);
    if (s.opKind[op] === OpKind.HwCollective && s.dataRegion(op) >= 0) {
      const data = this.readArray(rank, s.dataRegion(op), op);
      const acc = this.hwAcc[g];
      if (!acc) this.hwAcc[g] = data;
      else {
        if (acc.length !== data.length) this.fatal('length', `${this.where(op)}: contributes ${data.length * this.G} bytes, others ${acc.length * this.G}`);
        const f = this.reducers[s.reduceOpIndex(op)];
        for (let i = 0; i < acc.length; i++) acc[i] = f(acc[i], data[i]);
      }
    }
    this.waiting[g].push(p);
    this.arrived[g]++;
    if (this.arrived[g] < s.groupStart[g + 1] - s.groupStart[g]) return undefined;
    const done = this.waiting[g];
    this.waiting[g] = [];
    this.arrived[g] = 0;
    return done;
  }

  /** Completes a full group: writes hw results, merges causality sets, counts. `ops`: the ops of its members. */
  completeGroup(ops: number[]): void {
    const s = this.s;
    const g = s.opPeer[ops[0]];
    const acc = this.hwAcc[g];
    this.hwAcc[g] = undefined;
    if (this.heard) {
      const union = new Uint32Array(this.heard[0].length);
      for (const op of ops) orInto(union, this.heard[s.opRank[op]]);
      for (const op of ops) this.heard[s.opRank[op]].set(union);
    }
    for (const op of ops) {
      const rank = s.opRank[op];
      if (s.opKind[op] === OpKind.Barrier) this.stats.barriers[rank]++;
      else {
        this.stats.hwOps[rank]++;
        if (s.targetRegion(op) >= 0) {
          this.checkRegion(s.targetRegion(op), op);
          const want = this.rsTotal[s.targetRegion(op)];
          const data = acc ?? new Float64Array(want);
          if (data.length !== want) this.fatal('length', `${this.where(op)}: the combined result has ${data.length * this.G} bytes, the result region holds ${want * this.G}`);
          this.write(rank, s.targetRegion(op), data, op);
        }
      }
    }
  }

  // Non-blocking receives posted and not yet matched, per program, in posting order (created on first use).
  private pendingRecv: Array<number[] | undefined> = [];

  /**
   * Whether wait op `op` of program p can complete: every pending receive matched (waitall) or its
   * one request (wait). Returns the receive still unmatched it waits for, or -1.
   */
  private waitBlocker(p: number, op: number, step: number): number {
    const first = this.matchPending(p, step);
    const target = this.s.waitTarget(op);
    if (first < 0 || target < 0) return first;
    return this.pendingRecv[p]!.includes(target) ? target : -1;
  }

  /**
   * Matches program p's pending non-blocking receives whose messages have arrived (before `step`),
   * in posting order; returns the first still unmatched, or -1. Taking them in posting order keeps
   * MPI's matching rule: an earlier receive on a key gets the earlier message.
   */
  private matchPending(p: number, step: number): number {
    const list = this.pendingRecv[p];
    if (!list || list.length === 0) return -1;
    const s = this.s;
    let kept = 0;
    for (const op of list) {
      const m = this.mail.take(s.opPeer[op], s.opRank[op], s.opTag[op], step);
      if (m < 0) list[kept++] = op;
      else this.deliver(op, m);
    }
    list.length = kept;
    return kept > 0 ? list[0] : -1;
  }

  /** Posts non-blocking receive `op` of program p (it matches at once if its message is there). */
  private postRecv(p: number, op: number, step: number): void {
    (this.pendingRecv[p] ??= []).push(op);
    this.matchPending(p, step);
  }

  run(): ExecutionReport {
    const s = this.s;
    this.arrived = new Int32Array(s.numGroups);
    this.waiting = Array.from({ length: s.numGroups }, () => []);
    this.hwAcc = new Array(s.numGroups);
    let stepReport: StepReport | undefined;
    try {
      validateOps(s, (msg) => this.fatal('bounds', msg));
      if (this.opts.steps) stepReport = this.runSteps();
      else this.runAsync();
      if (!this.problems.some((p) => p.kind === 'unmatched')) this.reportUnmatched();
    } catch (err) {
      if (!(err instanceof Fatal)) throw err;
    }
    if (this.hazardsDropped) this.problems.push({ kind: 'hazard', message: `${this.hazardsDropped} more hazards` });
    const fatal = this.problems.some((p) => p.kind !== 'hazard' && p.kind !== 'unmatched');
    const verdict = fatal || this.opts.postcondition === false ? { mismatches: [], count: 0, checked: 0 } : this.verify();
    for (let r = 0; r < s.numRanks; r++) {
      let peak = s.bufferBytes(r, 0) + s.bufferBytes(r, 1);
      for (let b = 2; b < this.nb; b++) peak += this.tmpHigh[r * this.nb + b];
      this.stats.peakBytes[r] = peak;
    }
    return {
      pass: this.problems.length === 0 && verdict.count === 0,
      mode: this.mode,
      granularity: this.G,
      problems: this.problems,
      mismatchCount: verdict.count,
      mismatches: verdict.mismatches,
      checkedSlots: verdict.checked,
      stats: this.stats,
      messages: this.messages,
      steps: stepReport,
      buffer: this.opts.keepBuffers ? (rank, buf) => this.slots[rank * this.nb + buf] : undefined,
    };
  }

  private runAsync(): void {
    const s = this.s;
    const S = s.streams;
    const { start, order } = s.programs();
    const P = s.numRanks * S;
    const pc = start.slice(0, P);
    const ready: number[] = [];
    for (let p = P - 1; p >= 0; p--) if (start[p] < start[p + 1]) ready.push(p);
    const progress = this.opts.progress;
    let executed = 0;
    // The (source, destination) pair each blocked program waits on, or -1.
    const waitKey = new Float64Array(P).fill(-1);
    const wake = (src: number, dst: number): void => {
      const key = src * s.numRanks + dst;
      for (let q = dst * S; q < dst * S + S; q++) {
        if (waitKey[q] === key) {
          waitKey[q] = -1;
          ready.push(q);
        }
      }
    };
    while (ready.length) {
      const p = ready.pop()!;
      const end = start[p + 1];
      run: while (pc[p] < end) {
        const op = order[pc[p]];
        switch (s.opKind[op]) {
          case OpKind.Send: {
            this.doSend(op);
            const rank = s.opRank[op];
            const peer = s.opPeer[op];
            if (peer >= 0) wake(rank, peer);
            else for (let i = s.destStart[-peer - 1]; i < s.destStart[-peer]; i++) wake(rank, s.destRanks[i]);
            break;
          }
          case OpKind.Recv: {
            const rank = s.opRank[op];
            if (s.isNonBlocking(op)) {
              this.postRecv(p, op, Infinity);
              break;
            }
            // Receives posted earlier take their messages first.
            this.matchPending(p, Infinity);
            const m = this.mail.take(s.opPeer[op], rank, s.opTag[op], Infinity);
            if (m < 0) {
              waitKey[p] = s.opPeer[op] * s.numRanks + rank;
              break run;
            }
            this.deliver(op, m);
            break;
          }
          case OpKind.Barrier:
          case OpKind.HwCollective: {
            const done = this.arrive(p, op);
            if (!done) break run;
            this.completeGroup(done.map((q) => order[pc[q]]));
            for (const q of done) {
              pc[q]++;
              if (q !== p) ready.push(q);
            }
            executed += done.length;
            continue run;
          }
          case OpKind.Wait: {
            const unmatched = this.waitBlocker(p, op, Infinity);
            if (unmatched >= 0) {
              waitKey[p] = s.opPeer[unmatched] * s.numRanks + s.opRank[unmatched];
              break run;
            }
            break;
          }
          default:
            this.doLocal(op);
        }
        pc[p]++;
        if (++executed % PROGRESS_OPS === 0) progress?.(executed / s.numOps);
      }
    }
    this.reportBlocked(pc, start, order);
  }

  private reportBlocked(pc: Int32Array, start: Int32Array, order: Int32Array): void {
    const s = this.s;
    const blocked: string[] = [];
    let count = 0;
    for (let p = 0; p < pc.length; p++) {
      if (pc[p] >= start[p + 1]) continue;
      count++;
      if (blocked.length >= this.maxDetails) continue;
      const op = order[pc[p]];
      const k = s.opKind[op];
      const why =
        k === OpKind.Recv
          ? `waits for a message from rank ${s.opPeer[op]} tag ${s.opTag[op]}`
          : k === OpKind.Barrier || k === OpKind.HwCollective
            ? `waits at group ${s.opPeer[op]} (${this.arrived[s.opPeer[op]]} of ${s.groupStart[s.opPeer[op] + 1] - s.groupStart[s.opPeer[op]]} participants arrived)`
            : k === OpKind.Wait
              ? `waits for ${this.pendingRecv[p]?.length ?? 0} non-blocking receive(s), the first from rank ${s.opPeer[this.pendingRecv[p]?.[0] ?? op]}`
              : 'cannot proceed';
      blocked.push(`rank ${s.opRank[op]} stream ${s.opStream[op]} op #${op} (${s.describeOp(op)}) ${why}`);
    }
    if (!count) return;
    this.reportUnmatched();
    this.fatal('deadlock', `${count} program(s) blocked; ${blocked.join('; ')}`);
  }

  private reportUnmatched(): void {
    const s = this.s;
    let count = 0;
    const shown: string[] = [];
    for (const { src, dst, id } of this.mail.pending()) {
      count++;
      const op = this.mail.op[id];
      if (shown.length < this.maxDetails) shown.push(`op #${op} rank ${src} -> ${dst} tag ${this.mail.tag[id]} (${s.describeOp(op)})`);
    }
    if (count) this.problems.push({ kind: 'unmatched', message: `${count} message(s) sent but never received: ${shown.join('; ')}` });
    this.mail.clear();
  }

  /**
   * Unit steps (synchronous, one-port): in step t every (rank, stream) first runs its local ops,
   * completes barriers and consumes receives whose messages arrived before step t (these cost no
   * step), then issues at most one send. A send issued in step t is one transfer in step t and its
   * message is available from step t+1. Each rank receives at most `streams` messages per step
   * (one per stream); a send whose destination port is taken waits for a later step (counted as
   * deferred, lowest program first). An hw operation takes one step when all participants are at it.
   */
  private runSteps(): StepReport {
    const s = this.s;
    const S = s.streams;
    const n = s.numRanks;
    const { start, order } = s.programs();
    const P = n * S;
    const pc = start.slice(0, P);
    const leaf = leafSwitches(this.opts.topology, n);
    const stepStart: number[] = [0];
    const xs: number[] = [];
    const xd: number[] = [];
    const xo: number[] = [];
    const maxSend: number[] = [];
    const maxRecv: number[] = [];
    const maxUp: number[] = [];
    const maxDown: number[] = [];
    const deferred: number[] = [];
    const sendsPerRank = new Int32Array(n);
    const recvsPerRank = new Int32Array(n);
    const up = new Int32Array(leaf ? leaf.count : 0);
    const down = new Int32Array(leaf ? leaf.count : 0);
    const atGroup = new Uint8Array(P);

    /** Runs p as far as it can without issuing a send or taking a step; true if anything happened. */
    const advance = (p: number, step: number): boolean => {
      let progressed = false;
      while (pc[p] < start[p + 1]) {
        const op = order[pc[p]];
        const k = s.opKind[op];
        if (k === OpKind.Copy || k === OpKind.Reduce || k === OpKind.Pace) {
          this.doLocal(op);
        } else if (k === OpKind.Recv && s.isNonBlocking(op)) {
          this.postRecv(p, op, step);
        } else if (k === OpKind.Wait) {
          if (this.waitBlocker(p, op, step) >= 0) break;
        } else if (k === OpKind.Recv) {
          this.matchPending(p, step);
          const m = this.mail.take(s.opPeer[op], s.opRank[op], s.opTag[op], step);
          if (m < 0) break;
          this.deliver(op, m);
        } else if (k === OpKind.Barrier) {
          if (atGroup[p]) break;
          atGroup[p] = 1;
          progressed = true;
          const done = this.arrive(p, op);
          if (!done) break;
          this.completeGroup(done.map((q) => order[pc[q]]));
          for (const q of done) {
            atGroup[q] = 0;
            pc[q]++;
          }
          continue;
        } else break;
        pc[p]++;
        progressed = true;
      }
      return progressed;
    };

    for (let step = 0; ; step++) {
      for (let again = true; again; ) {
        again = false;
        for (let p = 0; p < P; p++) if (advance(p, step)) again = true;
      }
      let unfinished = false;
      for (let p = 0; p < P && !unfinished; p++) if (pc[p] < start[p + 1]) unfinished = true;
      if (!unfinished) break;
      let events = 0;
      // hw operations whose participants are all at them complete in this step.
      const atHw = new Map<number, number[]>();
      for (let p = 0; p < P; p++) {
        if (pc[p] >= start[p + 1]) continue;
        const op = order[pc[p]];
        if (s.opKind[op] !== OpKind.HwCollective) continue;
        const list = atHw.get(s.opPeer[op]);
        if (list) list.push(p);
        else atHw.set(s.opPeer[op], [p]);
      }
      for (const [g, members] of atHw) {
        if (members.length !== s.groupStart[g + 1] - s.groupStart[g]) continue;
        let done: number[] | undefined;
        for (const q of members) done = this.arrive(q, order[pc[q]]) ?? done;
        if (done) {
          this.completeGroup(done.map((q) => order[pc[q]]));
          for (const q of done) pc[q]++;
          events++;
        }
      }
      // Sends: one per stream, receive ports permitting.
      sendsPerRank.fill(0);
      recvsPerRank.fill(0);
      up.fill(0);
      down.fill(0);
      let waits = 0;
      for (let p = 0; p < P; p++) {
        if (pc[p] >= start[p + 1]) continue;
        const op = order[pc[p]];
        if (s.opKind[op] !== OpKind.Send) continue;
        const src = s.opRank[op];
        const dests = s.sendDests(op);
        if (dests.some((d) => recvsPerRank[d] >= S)) {
          waits++;
          continue;
        }
        this.doSend(op, step);
        for (const d of dests) {
          recvsPerRank[d]++;
          xs.push(src);
          xd.push(d);
          xo.push(op);
          if (leaf && leaf.of[src] !== leaf.of[d]) {
            if (leaf.of[src] >= 0) up[leaf.of[src]]++;
            if (leaf.of[d] >= 0) down[leaf.of[d]]++;
          }
        }
        sendsPerRank[src]++;
        pc[p]++;
        events++;
      }
      if (events === 0) {
        this.reportBlocked(pc, start, order);
        break;
      }
      stepStart.push(xs.length);
      maxSend.push(maxOf(sendsPerRank));
      maxRecv.push(maxOf(recvsPerRank));
      maxUp.push(leaf ? maxOf(up) : 0);
      maxDown.push(leaf ? maxOf(down) : 0);
      deferred.push(waits);
    }
    return {
      steps: stepStart.length - 1,
      stepStart: Int32Array.from(stepStart),
      xferSrc: Int32Array.from(xs),
      xferDst: Int32Array.from(xd),
      xferOp: Int32Array.from(xo),
      maxSendsPerRank: Int32Array.from(maxSend),
      maxRecvsPerRank: Int32Array.from(maxRecv),
      maxUpPerSwitch: Int32Array.from(maxUp),
      maxDownPerSwitch: Int32Array.from(maxDown),
      deferredSends: Int32Array.from(deferred),
      switchCounts: leaf !== undefined,
    };
  }

  private verify(): { mismatches: Mismatch[]; count: number; checked: number } {
    const s = this.s;
    const G = this.G;
    const mismatches: Mismatch[] = [];
    let count = 0;
    let checked = 0;
    const note = (m: Mismatch): void => {
      count++;
      if (mismatches.length < this.maxDetails) mismatches.push(m);
    };
    // `runs`: the open run of consecutive wrong slots (for data movement, the origin ids want/got
    // of its last slot must continue it too), and the runs kept in detail, whose text is written
    // once they are complete.
    let run: { rank: number; next: number; want: number; got: number; slots: number; kept?: { m: Mismatch; text: (slots: number) => string } } | undefined;
    const kept: Array<{ m: Mismatch; text: (slots: number) => string }> = [];
    const sameBlock = (a: number, b: number): boolean => {
      const x = this.origin(a);
      const y = this.origin(b);
      return x.rank === y.rank && x.block === y.block;
    };
    /** Extends the open run with slot o of rank r when `continues`; true when it did. */
    const extend = (r: number, o: number, want: number, got: number, continues: boolean): boolean => {
      if (!run || run.rank !== r || run.next !== o || !continues) return false;
      count++;
      run.next = o + 1;
      run.want = want;
      run.got = got;
      run.slots++;
      if (run.kept) run.kept.m.slots = run.slots;
      return true;
    };
    /** Opens a run at slot o with its mismatch (kept in detail while there is room). */
    const open = (m: Mismatch, o: number, want: number, got: number, text: (slots: number) => string): void => {
      const before = mismatches.length;
      run = { rank: m.rank, next: o + 1, want, got, slots: 1 };
      m.slots = 1;
      note(m);
      if (mismatches.length > before) {
        run.kept = { m: mismatches[before], text };
        kept.push(run.kept);
      }
    };
    for (const part of s.parts) {
      if (part.collective === 'barrier') {
        if (!this.heard) continue;
        for (const r of part.ranks) {
          checked++;
          const missing: number[] = [];
          for (const q of part.ranks) if (!(this.heard[r][q >>> 5] & (1 << (q & 31)))) missing.push(q);
          if (missing.length) {
            count++;
            this.problems.push({ kind: 'deadlock', message: `barrier: rank ${r} can leave before rank(s) ${missing.slice(0, 8).join(', ')} arrived (no causal chain of messages or barriers from them)` });
          }
        }
        continue;
      }
      const movement = isMovement(part);
      const f = this.reducers[REDUCE_OPS.indexOf(s.op)];
      const tol = tolerance(s.dtype);
      for (let j = 0; j < part.ranks.length; j++) {
        const r = part.ranks[j];
        const outSlots = outputBytes(part, j) / G;
        if (outSlots === 0) continue;
        const a = this.buffer(r, 1);
        // Every movement postcondition maps one output block (part.size bytes, a multiple of G) to
        // consecutive bytes of one source, so the origin is looked up once per block.
        const blockSlots = Number.isInteger(part.size / G) && part.size > 0 ? part.size / G : 1;
        // alltoallv's blocks differ in size: the origin is looked up again where the next sender's block starts.
        const ends = part.collective === 'alltoallv' ? alltoallvBlockEnds(part, j, G) : undefined;
        let nextEnd = 0;
        let blockId = 0;
        for (let o = 0; o < outSlots; o++) {
          checked++;
          const got = a[o];
          if (movement) {
            if (ends ? o >= nextEnd : o % blockSlots === 0) {
              const e = expectedOrigin(part, j, o * G)!;
              blockId = e.src * this.inputStride + e.byte / G + 1 - o;
              if (ends) nextEnd = ends.find((x) => x > o) ?? outSlots;
            }
            const want = blockId + o;
            if (got === want) continue;
            if (this.opts.runs) {
              const continues = run !== undefined && want === run.want + 1 && (got === 0 ? run.got === 0 : run.got !== 0 && got === run.got + 1);
              if (extend(r, o, want, got, continues && sameBlock(want, run!.want) && (got === 0 || sameBlock(got, run!.got)))) continue;
              const m: Mismatch = { rank: r, buffer: 'recv', byte: o * G, expected: this.origin(want), found: got === 0 ? 'uninitialised' : this.origin(got), text: '' };
              open(m, o, want, got, () => this.runText(m, want, got));
              continue;
            }
            note({
              rank: r,
              buffer: 'recv',
              byte: o * G,
              expected: this.origin(want),
              found: got === 0 ? 'uninitialised' : this.origin(got),
              text: `rank ${r} recv[${o * G}${G > 1 ? `..${o * G + G - 1}` : ''}] should hold ${this.originText(want)} but holds ${got === 0 ? 'uninitialised data' : this.originText(got)}`,
            });
          } else {
            const el = expectedElement(part, j, o, G);
            let want = inputValue(s.dtype, s.op, part.ranks[0], el);
            let mag = Math.abs(want);
            for (let i = 1; i < part.ranks.length; i++) {
              const v = inputValue(s.dtype, s.op, part.ranks[i], el);
              want = f(want, v);
              mag += Math.abs(v);
            }
            const ok = tol === 0 ? got === want : Math.abs(got - want) <= tol * Math.max(1, mag);
            if (ok) continue;
            const text = `should hold ${s.op} of element ${el} over ${part.ranks.length} ranks = ${want} but holds ${got}`;
            if (this.opts.runs) {
              if (extend(r, o, want, got, true)) continue;
              const byte = o * G;
              open({ rank: r, buffer: 'recv', byte, expected: want, found: got, text: '' }, o, want, got, (slots) =>
                slots === 1 ? `rank ${r} recv[${byte}..${byte + G - 1}] ${text}` : `rank ${r} recv[${byte}..${byte + slots * G - 1}]: ${slots} elements wrong; the first ${text}`);
              continue;
            }
            note({ rank: r, buffer: 'recv', byte: o * G, expected: want, found: got, text: `rank ${r} recv[${o * G}..${o * G + G - 1}] ${text}` });
          }
        }
      }
    }
    for (const k of kept) k.m.text = k.text(k.m.slots ?? 1);
    return { mismatches, count, checked };
  }

  /** A run's text: one slot as the per-slot text, several as byte ranges of the buffer and of both origins. */
  private runText(m: Mismatch, want: number, got: number): string {
    const G = this.G;
    const slots = m.slots ?? 1;
    const last = m.byte + slots * G - 1;
    const range = (id: number): string => {
      if (slots === 1) return this.originText(id);
      const o = this.origin(id);
      return `rank ${o.rank} block ${o.block} bytes ${o.offset}..${o.offset + slots * G - 1}`;
    };
    const where = slots === 1 && G === 1 ? `${m.byte}` : `${m.byte}..${last}`;
    return `rank ${m.rank} recv[${where}] should hold ${range(want)} but holds ${got === 0 ? 'uninitialised data' : range(got)}`;
  }

  private origin(id: number): Origin {
    const x = id - 1;
    const rank = Math.floor(x / this.inputStride);
    const byte = (x % this.inputStride) * this.G;
    const p = this.s.partOfRank[rank];
    const bb = p >= 0 ? originBlockBytes(this.s.parts[p]) : 1;
    return { rank, block: Math.floor(byte / bb), offset: byte % bb };
  }

  private originText(id: number): string {
    if (!(id >= 1 && id <= this.s.numRanks * this.inputStride && Number.isInteger(id))) return `a value that is no input byte (${id})`;
    const o = this.origin(id);
    return `rank ${o.rank} block ${o.block} byte ${o.offset}`;
  }
}

/**
 * Gathers extents e0..e1 of `a` (Int32 offsets/lengths) into `out` in order. Merged messages are
 * mostly one-slot extents, so those take the plain indexed path; long runs use a bulk set.
 */
function copyExtentsOut(a: Float64Array, offs: Int32Array, lens: Int32Array, e0: number, e1: number, out: Float64Array): void {
  let k = 0;
  for (let e = e0; e < e1; e++) {
    const off = offs[e];
    const len = lens[e];
    if (len === 1) out[k++] = a[off];
    else if (len > 32) {
      out.set(a.subarray(off, off + len), k);
      k += len;
    } else {
      for (let i = 0; i < len; i++) out[k + i] = a[off + i];
      k += len;
    }
  }
}

/** Scatters `data` into extents e0..e1 of `a`: the inverse of copyExtentsOut. */
function copyExtentsIn(data: Float64Array, offs: Int32Array, lens: Int32Array, e0: number, e1: number, a: Float64Array): void {
  let k = 0;
  for (let e = e0; e < e1; e++) {
    const off = offs[e];
    const len = lens[e];
    if (len === 1) a[off] = data[k++];
    else if (len > 32) {
      a.set(data.subarray(k, k + len), off);
      k += len;
    } else {
      for (let i = 0; i < len; i++) a[off + i] = data[k + i];
      k += len;
    }
  }
}

function maxOf(a: Int32Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) if (a[i] > m) m = a[i];
  return m;
}

function orInto(a: Uint32Array, b: Uint32Array): void {
  for (let i = 0; i < a.length; i++) a[i] |= b[i];
}

function hasHw(s: Schedule): boolean {
  for (let i = 0; i < s.numOps; i++) if (s.opKind[i] === OpKind.HwCollective) return true;
  return false;
}

/** alltoallv: the slot where each sender's block in local rank j's receive buffer ends, in order. */
function alltoallvBlockEnds(part: Part, j: number, G: number): number[] {
  const n = part.ranks.length;
  const { rdispl } = alltoallvLayout(part);
  const ends: number[] = [];
  for (let i = 0; i < n; i++) ends.push((rdispl[i * n + j] + part.sizes![i * n + j]) / G);
  return ends;
}

/** Structural checks of op fields that the builder guarantees but a loaded file may not. */
export function validateOps(s: Schedule, fail: (msg: string) => void): void {
  for (let i = 0; i < s.numOps; i++) {
    const k = s.opKind[i];
    const peer = s.opPeer[i];
    if (k === OpKind.Send) {
      if (peer >= s.numRanks || (peer < 0 && -peer - 1 >= s.destStart.length - 1)) fail(`op #${i}: send destination ${peer} does not exist`);
      if (s.sendHint(i) >= s.numHints) fail(`op #${i}: hint ${s.sendHint(i)} does not exist`);
    } else if (k === OpKind.Recv && !(peer >= 0 && peer < s.numRanks)) fail(`op #${i}: recv source ${peer} is not a rank`);
    else if ((k === OpKind.Barrier || k === OpKind.HwCollective) && !(peer >= 0 && peer < s.numGroups)) fail(`op #${i}: group ${peer} does not exist`);
    else if (k === OpKind.Pace && !(s.paceValueIndex(i) >= 0 && s.paceValueIndex(i) < s.paceValues.length)) fail(`op #${i}: pace value ${s.paceValueIndex(i)} does not exist`);
    else if (k > OpKind.Wait) fail(`op #${i}: unknown kind ${k}`);
    if (k === OpKind.HwCollective && (s.dataRegion(i) >= s.numRegions || s.targetRegion(i) >= s.numRegions)) fail(`op #${i}: hw region does not exist`);
  }
}

/** Leaf switch of each rank: the switch its host-up channel reaches (two-level topologies), else undefined. */
function leafSwitches(t: Topology | undefined, n: number): { of: Int32Array; count: number } | undefined {
  if (!t) return undefined;
  const hostUp = t.classNames.indexOf('host-up');
  if (hostUp < 0) return undefined;
  const of = new Int32Array(n).fill(-1);
  const ids = new Map<number, number>();
  for (let r = 0; r < Math.min(n, t.numEndpoints); r++) {
    const v = t.endpoints[r];
    for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) {
      const c = t.outChannels[i];
      if (t.chClass[c] !== hostUp) continue;
      const sw = t.chDst[c];
      if (!ids.has(sw)) ids.set(sw, ids.size);
      of[r] = ids.get(sw)!;
      break;
    }
  }
  return { of, count: ids.size };
}
