/**
 * MSCCL-XML reader: a streaming push parser (feed text chunks, then `finish`) that fills the flat
 * columns of an MscclAlgo and refuses, in one line naming the element and attribute, anything the
 * MSCCL runtime would not run: an unknown step type, a peer out of range, a chunk beyond its
 * buffer, a dependency on a step that does not exist, a cycle of dependencies, a send with no
 * matching receive.
 */
import { InputError, LimitError } from '../../util/errors.js';
import { resized } from '../../util/typed-arrays.js';
import { XmlStream, type XmlAttributes } from '../xml.js';
import {
  BUFFERS,
  MSCCL_COLLECTIVES,
  MSCCL_PROTOCOLS,
  NO_BUFFER,
  PROTOCOL_NAMES,
  READS_SRC,
  RECEIVES,
  SENDS,
  STEP_TYPES,
  WRITES_DST,
  Step,
  gpuOfTb,
  tbOfStep,
  type MscclAlgo,
  type MscclHeader,
  type MscclProtocol,
} from './format.js';

/** Largest GPU count read (the schedule IR's rank ids and the engines go further; XML files do not). */
export const MAX_MSCCL_GPUS = 1 << 16;

const STEP_ELEMENTS = new Set(['step', 'op']);

function intAttr(attrs: XmlAttributes, name: string, where: string, opts: { min?: number; max?: number; dflt?: number } = {}): number {
  const text = attrs[name];
  if (text === undefined) {
    if (opts.dflt !== undefined) return opts.dflt;
    throw new InputError(`${where}.${name}`, undefined, 'an integer attribute (required)');
  }
  const v = Number(text.trim());
  const min = opts.min ?? -Infinity;
  const max = opts.max ?? Infinity;
  if (!(Number.isInteger(v) && text.trim() !== '' && v >= min && v <= max)) {
    const range = Number.isFinite(max) ? `an integer from ${min} to ${max}` : `an integer >= ${min}`;
    throw new InputError(`${where}.${name}`, text, range);
  }
  return v;
}

function boolAttr(attrs: XmlAttributes, name: string, where: string): boolean | undefined {
  const text = attrs[name];
  if (text === undefined) return undefined;
  if (text !== '0' && text !== '1') throw new InputError(`${where}.${name}`, text, '0 or 1');
  return text === '1';
}

/** Streaming MSCCL-XML reader. */
export class MscclReader {
  private readonly xml: XmlStream;
  private header: MscclHeader | undefined;
  private gpu = -1;
  private gpuOpen = false;
  private tbOpen = false;
  private gpuChunks = new Int32Array(0);
  private readonly gpuFirstTb: number[] = [0];
  private numTbs = 0;
  private tbSend = new Int32Array(64);
  private tbRecv = new Int32Array(64);
  private tbChan = new Int32Array(64);
  private tbFirstStep = new Int32Array(65);
  private numSteps = 0;
  private stepType = new Uint8Array(1024);
  private stepSrcBuf = new Uint8Array(1024);
  private stepSrcOff = new Int32Array(1024);
  private stepDstBuf = new Uint8Array(1024);
  private stepDstOff = new Int32Array(1024);
  private stepCnt = new Int32Array(1024);
  private stepDepTb = new Int32Array(1024);
  private stepDepStep = new Int32Array(1024);
  private stepHasDep = new Uint8Array(1024);

  constructor(private readonly field = 'msccl') {
    this.xml = new XmlStream({ open: (name, attrs) => this.open(name, attrs), close: (name) => this.close(name) }, field);
  }

  write(chunk: string): this {
    this.xml.write(chunk);
    return this;
  }

  finish(): MscclAlgo {
    this.xml.close();
    const h = this.header;
    if (!h) throw new InputError(this.field, 'no <algo> element', 'an MSCCL-XML document: <algo> holding <gpu>, <tb> and <step> elements');
    if (this.gpu + 1 !== h.ngpus) throw new InputError(`${this.field}.algo.ngpus`, h.ngpus, `the number of <gpu> elements (${this.gpu + 1})`);
    const n = this.numSteps;
    const algo: MscclAlgo = {
      ...h,
      gpuChunks: this.gpuChunks,
      gpuFirstTb: Int32Array.from(this.gpuFirstTb),
      tbSend: this.tbSend.slice(0, this.numTbs),
      tbRecv: this.tbRecv.slice(0, this.numTbs),
      tbChan: this.tbChan.slice(0, this.numTbs),
      tbFirstStep: this.tbFirstStep.slice(0, this.numTbs + 1),
      stepType: this.stepType.slice(0, n),
      stepSrcBuf: this.stepSrcBuf.slice(0, n),
      stepSrcOff: this.stepSrcOff.slice(0, n),
      stepDstBuf: this.stepDstBuf.slice(0, n),
      stepDstOff: this.stepDstOff.slice(0, n),
      stepCnt: this.stepCnt.slice(0, n),
      stepDepTb: this.stepDepTb.slice(0, n),
      stepDepStep: this.stepDepStep.slice(0, n),
      stepHasDep: this.stepHasDep.slice(0, n),
      numTbs: this.numTbs,
      numSteps: n,
    };
    checkConnections(algo, this.field);
    return algo;
  }

  private open(name: string, attrs: XmlAttributes): void {
    if (name === 'algo') return this.openAlgo(attrs);
    if (!this.header) throw new InputError(`${this.field}.${name}`, `<${name}> outside <algo>`, 'one <algo> root element');
    if (name === 'gpu') return this.openGpu(attrs);
    if (name === 'tb') return this.openTb(attrs);
    if (STEP_ELEMENTS.has(name)) return this.openStep(attrs);
    throw new InputError(`${this.field}.${name}`, `<${name}>`, 'the elements algo, gpu, tb, step (or op)');
  }

  private close(name: string): void {
    if (name === 'gpu') {
      this.gpuOpen = false;
      this.gpuFirstTb.push(this.numTbs);
      checkDependencies(this, this.gpu, this.field);
    } else if (name === 'tb') {
      this.tbOpen = false;
    }
  }

  private openAlgo(attrs: XmlAttributes): void {
    if (this.header) throw new InputError(`${this.field}.algo`, 'a second <algo>', 'one <algo> per file');
    const where = `${this.field}.algo`;
    const proto = (attrs.proto ?? 'Simple') as MscclProtocol;
    if (!(proto in MSCCL_PROTOCOLS)) throw new InputError(`${where}.proto`, attrs.proto, PROTOCOL_NAMES.join(', '));
    const coll = attrs.coll;
    const collective = coll === undefined ? undefined : MSCCL_COLLECTIVES[coll.toLowerCase()];
    if (!collective) throw new InputError(`${where}.coll`, coll, Object.keys(MSCCL_COLLECTIVES).join(', '));
    const ngpus = intAttr(attrs, 'ngpus', where, { min: 1 });
    if (ngpus > MAX_MSCCL_GPUS) throw new LimitError(`${where}.ngpus`, ngpus, `${MAX_MSCCL_GPUS} GPUs`);
    const optionalInt = (k: string): number | undefined => (attrs[k] === undefined ? undefined : intAttr(attrs, k, where, { min: 0, max: Number.MAX_SAFE_INTEGER }));
    this.header = {
      name: attrs.name ?? 'msccl',
      proto,
      nchannels: intAttr(attrs, 'nchannels', where, { min: 1, dflt: 1 }),
      nchunksperloop: intAttr(attrs, 'nchunksperloop', where, { min: 1 }),
      ngpus,
      coll,
      collective,
      inplace: boolAttr(attrs, 'inplace', where) ?? false,
      outofplace: boolAttr(attrs, 'outofplace', where),
      minBytes: optionalInt('minBytes'),
      maxBytes: optionalInt('maxBytes'),
      redop: attrs.redop,
    };
    this.gpuChunks = new Int32Array(3 * ngpus);
  }

  private openGpu(attrs: XmlAttributes): void {
    const h = this.header!;
    const where = `${this.field}.gpu[${this.gpu + 1}]`;
    if (this.gpuOpen) throw new InputError(where, '<gpu> inside <gpu>', '<gpu> elements directly inside <algo>');
    const id = intAttr(attrs, 'id', where, { min: 0, max: h.ngpus - 1 });
    if (id !== this.gpu + 1) throw new InputError(`${where}.id`, id, `${this.gpu + 1} (gpu elements in id order from 0)`);
    this.gpu = id;
    this.gpuOpen = true;
    const chunks = ['i_chunks', 'o_chunks', 's_chunks'].map((k) => intAttr(attrs, k, where, { min: 0, max: 2 ** 30, dflt: 0 }));
    this.gpuChunks.set(chunks, 3 * id);
  }

  private openTb(attrs: XmlAttributes): void {
    const h = this.header!;
    const g = this.gpu;
    const local = this.numTbs - this.gpuFirstTb[g];
    const where = `${this.field}.gpu[${g}].tb[${local}]`;
    if (!this.gpuOpen || this.tbOpen) throw new InputError(where, '<tb> outside a <gpu>', '<tb> elements directly inside <gpu>');
    const id = intAttr(attrs, 'id', where, { min: 0 });
    if (id !== local) throw new InputError(`${where}.id`, id, `${local} (tb elements of a gpu in id order from 0)`);
    const peer = (k: string): number => {
      const p = intAttr(attrs, k, where, { min: -1, max: h.ngpus - 1, dflt: -1 });
      if (p === g) throw new InputError(`${where}.${k}`, p, `-1 (none) or another gpu's id, 0 to ${h.ngpus - 1} (not its own, ${g})`);
      return p;
    };
    const t = this.numTbs++;
    if (t + 1 >= this.tbSend.length) {
      const size = 2 * this.tbSend.length;
      this.tbSend = resized(this.tbSend, size);
      this.tbRecv = resized(this.tbRecv, size);
      this.tbChan = resized(this.tbChan, size);
      this.tbFirstStep = resized(this.tbFirstStep, size + 1);
    }
    this.tbSend[t] = peer('send');
    this.tbRecv[t] = peer('recv');
    this.tbChan[t] = intAttr(attrs, 'chan', where, { min: 0, max: 65535, dflt: 0 });
    this.tbFirstStep[t] = this.numSteps;
    this.tbFirstStep[t + 1] = this.numSteps;
    this.tbOpen = true;
  }

  private openStep(attrs: XmlAttributes): void {
    const t = this.numTbs - 1;
    const g = this.gpu;
    const local = this.numSteps - this.tbFirstStep[t];
    const where = `${this.field}.gpu[${g}].tb[${t - this.gpuFirstTb[g]}].step[${local}]`;
    if (!this.tbOpen) throw new InputError(where, '<step> outside a <tb>', '<step> elements inside <tb>');
    const s = intAttr(attrs, 's', where, { min: 0, dflt: local });
    if (s !== local) throw new InputError(`${where}.s`, s, `${local} (steps of a tb numbered in order from 0)`);
    const type = STEP_TYPES.indexOf(attrs.type as (typeof STEP_TYPES)[number]);
    if (type < 0) throw new InputError(`${where}.type`, attrs.type, `a step type: ${STEP_TYPES.join(', ')}`);
    if (SENDS[type] && this.tbSend[t] < 0) throw new InputError(`${where}.type`, attrs.type, `a step that does not send (its tb has send="-1")`);
    if (RECEIVES[type] && this.tbRecv[t] < 0) throw new InputError(`${where}.type`, attrs.type, `a step that does not receive (its tb has recv="-1")`);
    const nop = type === Step.nop;
    const cnt = intAttr(attrs, 'cnt', where, { min: nop ? -1 : 1, max: 2 ** 30, dflt: nop ? 0 : undefined });
    const buffer = (k: 'srcbuf' | 'dstbuf', offKey: 'srcoff' | 'dstoff', used: boolean): [number, number] => {
      if (!used) return [NO_BUFFER, 0];
      const b = BUFFERS.indexOf(attrs[k] as (typeof BUFFERS)[number]);
      if (b < 0) throw new InputError(`${where}.${k}`, attrs[k], 'i (input), o (output) or s (scratch)');
      const off = intAttr(attrs, offKey, where, { min: 0 });
      const chunks = this.bufferChunks(g, b);
      if (off + cnt > chunks) {
        throw new InputError(`${where}.${offKey}`, off, `chunks ${off}..${off + cnt - 1} inside the ${chunks}-chunk ${attrs[k]} buffer of gpu ${g} (offset + cnt <= ${chunks})`);
      }
      return [b, off];
    };
    const [srcBuf, srcOff] = buffer('srcbuf', 'srcoff', READS_SRC[type]);
    const [dstBuf, dstOff] = buffer('dstbuf', 'dstoff', WRITES_DST[type]);
    const i = this.numSteps++;
    if (i === this.stepType.length) this.growSteps();
    this.stepType[i] = type;
    this.stepSrcBuf[i] = srcBuf;
    this.stepSrcOff[i] = srcOff;
    this.stepDstBuf[i] = dstBuf;
    this.stepDstOff[i] = dstOff;
    this.stepCnt[i] = Math.max(cnt, 0);
    this.stepDepTb[i] = intAttr(attrs, 'depid', where, { min: -1, dflt: -1 });
    this.stepDepStep[i] = intAttr(attrs, 'deps', where, { min: -1, dflt: -1 });
    if ((this.stepDepTb[i] < 0) !== (this.stepDepStep[i] < 0)) {
      throw new InputError(`${where}.deps`, attrs.deps, `a step index >= 0 with depid ${this.stepDepTb[i]}, or -1 with depid -1`);
    }
    this.stepHasDep[i] = boolAttr(attrs, 'hasdep', where) ? 1 : 0;
    this.tbFirstStep[t + 1] = this.numSteps;
  }

  /** Chunks of buffer b on gpu g; in place, `o` is the input buffer when it declares no chunks of its own. */
  private bufferChunks(g: number, b: number): number {
    const c = this.gpuChunks[3 * g + b];
    return b === 1 && c === 0 && this.header!.inplace ? this.gpuChunks[3 * g] : c;
  }

  private growSteps(): void {
    const size = 2 * this.stepType.length;
    if (size > 2 ** 30) throw new LimitError(`${this.field}.step`, this.numSteps, `${2 ** 30} steps`);
    this.stepType = resized(this.stepType, size);
    this.stepSrcBuf = resized(this.stepSrcBuf, size);
    this.stepSrcOff = resized(this.stepSrcOff, size);
    this.stepDstBuf = resized(this.stepDstBuf, size);
    this.stepDstOff = resized(this.stepDstOff, size);
    this.stepCnt = resized(this.stepCnt, size);
    this.stepDepTb = resized(this.stepDepTb, size);
    this.stepDepStep = resized(this.stepDepStep, size);
    this.stepHasDep = resized(this.stepHasDep, size);
  }

  /** Read access for the per-GPU dependency check (columns still growing). */
  depView(): { firstTb: readonly number[]; tbFirstStep: Int32Array; depTb: Int32Array; depStep: Int32Array; numTbs: number } {
    return { firstTb: this.gpuFirstTb, tbFirstStep: this.tbFirstStep, depTb: this.stepDepTb, depStep: this.stepDepStep, numTbs: this.numTbs };
  }
}

/**
 * Dependencies of one GPU: each names an existing step of another thread block, and program order
 * plus dependencies form no cycle (Kahn's algorithm over the GPU's steps; a cycle is named step by step).
 */
function checkDependencies(reader: MscclReader, g: number, field: string): void {
  const { firstTb, tbFirstStep, depTb, depStep } = reader.depView();
  const t0 = firstTb[g];
  const t1 = firstTb[g + 1];
  const s0 = tbFirstStep[t0];
  const s1 = tbFirstStep[t1];
  const n = s1 - s0;
  const name = (step: number): string => {
    let t = t0;
    while (tbFirstStep[t + 1] <= step) t++;
    return `gpu[${g}].tb[${t - t0}].step[${step - tbFirstStep[t]}]`;
  };
  // pred[i]: the step i waits for (global index), -1 for none.
  const pred = new Int32Array(n).fill(-1);
  for (let i = s0; i < s1; i++) {
    const dt = depTb[i];
    if (dt < 0) continue;
    if (dt >= t1 - t0) throw new InputError(`${field}.${name(i)}.depid`, dt, `a tb id of gpu ${g} (0 to ${t1 - t0 - 1})`);
    const count = tbFirstStep[t0 + dt + 1] - tbFirstStep[t0 + dt];
    if (depStep[i] >= count) throw new InputError(`${field}.${name(i)}.deps`, depStep[i], `a step of gpu ${g} tb ${dt} (0 to ${count - 1})`);
    pred[i - s0] = tbFirstStep[t0 + dt] + depStep[i];
  }
  // Each step waits for its predecessor in its tb and for its dependency: at most two in-edges.
  const indeg = new Uint8Array(n);
  const depHead = new Int32Array(n).fill(-1);
  const depNext = new Int32Array(n).fill(-1);
  for (let t = t0; t < t1; t++) for (let i = tbFirstStep[t] + 1; i < tbFirstStep[t + 1]; i++) indeg[i - s0]++;
  for (let i = 0; i < n; i++) {
    if (pred[i] < 0) continue;
    indeg[i]++;
    const p = pred[i] - s0;
    depNext[i] = depHead[p];
    depHead[p] = i;
  }
  const queue = new Int32Array(n);
  let qh = 0;
  let qt = 0;
  for (let i = 0; i < n; i++) if (indeg[i] === 0) queue[qt++] = i;
  const isLast = new Uint8Array(n);
  for (let t = t0; t < t1; t++) if (tbFirstStep[t + 1] > tbFirstStep[t]) isLast[tbFirstStep[t + 1] - 1 - s0] = 1;
  while (qh < qt) {
    const i = queue[qh++];
    if (!isLast[i] && --indeg[i + 1] === 0) queue[qt++] = i + 1;
    for (let d = depHead[i]; d >= 0; d = depNext[d]) if (--indeg[d] === 0) queue[qt++] = d;
  }
  if (qt === n) return;
  // Walk back from a stuck step through stuck predecessors until a step repeats: that is a cycle.
  let i = 0;
  while (indeg[i] === 0) i++;
  const seen = new Int32Array(n).fill(-1);
  const path: number[] = [];
  while (seen[i] < 0) {
    seen[i] = path.length;
    path.push(i);
    const back = pred[i] >= 0 && indeg[pred[i] - s0] > 0 ? pred[i] - s0 : i - 1;
    i = back;
  }
  const cycle = path.slice(seen[i]).reverse();
  const first = cycle.find((k) => pred[k] >= 0) ?? cycle[0];
  throw new InputError(
    `${field}.${name(first + s0)}.depid`,
    depTb[first + s0],
    `a dependency that does not wait on itself (cycle: ${[...cycle, cycle[0]].map((k) => name(k + s0)).join(' -> ')})`,
  );
}

/**
 * Every connection (sender, receiver, channel) carries as many messages and chunks out as in:
 * otherwise the runtime hangs. Several thread blocks may share a connection (its messages are
 * delivered in order, MSCCL orders the thread blocks with dependencies), so the check counts per
 * connection and names the last step of the side with more.
 */
function checkConnections(a: MscclAlgo, field: string): void {
  // Per connection: messages and chunks sent, received; last sending and receiving step.
  const conns = new Map<number, Float64Array>();
  for (let g = 0; g < a.ngpus; g++) {
    for (let t = a.gpuFirstTb[g]; t < a.gpuFirstTb[g + 1]; t++) {
      for (let i = a.tbFirstStep[t]; i < a.tbFirstStep[t + 1]; i++) {
        const type = a.stepType[i];
        for (const side of [0, 1]) {
          if (!(side === 0 ? SENDS[type] : RECEIVES[type])) continue;
          const k = side === 0 ? (g * a.ngpus + a.tbSend[t]) * 65536 + a.tbChan[t] : (a.tbRecv[t] * a.ngpus + g) * 65536 + a.tbChan[t];
          let c = conns.get(k);
          if (!c) conns.set(k, (c = new Float64Array(6).fill(-1)).fill(0, 0, 4));
          c[2 * side]++;
          c[2 * side + 1] += a.stepCnt[i];
          c[4 + side] = i;
        }
      }
    }
  }
  for (const [k, c] of conns) {
    if (c[0] === c[2] && c[1] === c[3]) continue;
    const from = Math.floor(k / 65536 / a.ngpus);
    const to = Math.floor(k / 65536) % a.ngpus;
    const chan = k % 65536;
    const what = (side: number): string => `${c[2 * side]} message(s) of ${c[2 * side + 1]} chunk(s)`;
    const more = c[0] > c[2] || (c[0] === c[2] && c[1] > c[3]) ? 0 : 1;
    const step = c[4 + more];
    throw new InputError(
      `${field}.${stepPath(a, step)}.type`,
      STEP_TYPES[a.stepType[step]],
      `steps matching the connection gpu ${from} -> gpu ${to} channel ${chan}: gpu ${from} sends ${what(0)}, gpu ${to} receives ${what(1)}`,
    );
  }
}

/** "gpu[3].tb[1].step[4]" */
export function stepPath(a: MscclAlgo, step: number): string {
  const tb = tbOfStep(a, step);
  const gpu = gpuOfTb(a, tb);
  return `gpu[${gpu}].tb[${tb - a.gpuFirstTb[gpu]}].step[${step - a.tbFirstStep[tb]}]`;
}

/** Reads a whole MSCCL-XML document held in one string. */
export function readMscclXml(text: string, field = 'msccl'): MscclAlgo {
  return new MscclReader(field).write(text).finish();
}
