/**
 * MSCCL algorithm → schedule IR. Each GPU is a rank, each thread block a stream (tb id = stream),
 * each step one or more ops in order; the connection (sender, receiver, channel) is the message
 * tag, so messages match in order per connection as MSCCL delivers them. A cross-thread-block
 * dependency is a zero-byte message from the rank to itself (a local signal: sent after the step
 * waited for, received before the waiting step). The mapping table is in docs/interop.md.
 */
import { InputError } from '../../util/errors.js';
import { resized } from '../../util/typed-arrays.js';
import { MAX_STREAMS, RECV, SEND, ScheduleBuilder, ioBytes, type Schedule } from '../../collectives/schedule.js';
import { DTYPE_BYTES, isReduction, type Dtype, type ReduceOp } from '../../collectives/types.js';
import { inputPlacement } from '../../collectives/patterns.js';
import { describeStep, Step, type MscclAlgo } from './format.js';

/** Tags from here on are dependency signals (one per waiting step); below it, channel numbers. */
export const DEPENDENCY_TAG = 1 << 16;

export interface MscclImportOptions {
  /**
   * Bytes, in the collective's size convention (docs/collectives.md: allreduce the whole buffer,
   * alltoall and allgather one block, ...); for `custom`, the bytes of one GPU's input buffer.
   */
  readonly size: number;
  readonly dtype?: Dtype;
  readonly op?: ReduceOp;
  /** Recorded in the schedule (the topology spec it was built for). */
  readonly topology?: string;
}

export interface MscclSchedule {
  readonly schedule: Schedule;
  readonly algo: MscclAlgo;
  /** Bytes of one chunk. */
  readonly chunkBytes: number;
  /** The MSCCL step each op came from (op id → step index), for messages. */
  readonly opStep: Int32Array;
}

/** Builds the schedule of an MSCCL algorithm at one size. */
export function mscclToSchedule(a: MscclAlgo, opts: MscclImportOptions): MscclSchedule {
  const custom = a.collective === 'custom';
  const collective = a.collective === 'custom' ? 'barrier' : a.collective;
  const redop = checkRedop(a, opts.op);
  const maxTbs = maxThreadBlocks(a);
  if (maxTbs > MAX_STREAMS) throw new InputError('msccl.gpu.tb', maxTbs, `at most ${MAX_STREAMS} thread blocks per gpu (streams per rank)`);
  // Meshwork's in-place reduce-scatter keeps the result at offset 0, MSCCL's at the rank's block:
  // that one is imported out of place (docs/interop.md).
  const inPlace = a.inplace && collective !== 'reduce-scatter';
  const b = new ScheduleBuilder({
    collective,
    numRanks: a.ngpus,
    size: custom ? 0 : opts.size,
    dtype: opts.dtype,
    op: redop,
    inPlace,
    streams: Math.max(1, maxTbs),
    algorithm: 'msccl-xml',
    algorithmSpec: `msccl-xml:${a.name},proto=${a.proto}`,
    topology: opts.topology,
    expectedOps: Math.ceil(a.numSteps * 1.5),
  });
  const chunkBytes = chunkSize(a, b, opts.size, custom);
  const part = b.parts[0];
  // MSCCL buffer (i, o, s) → Meshwork buffer id and per-rank byte offset.
  const bufId = custom
    ? [b.tmpBuffer('input', maxChunks(a, 0) * chunkBytes), b.tmpBuffer('output', maxChunks(a, 1) * chunkBytes), -1]
    : [inPlace ? RECV : SEND, RECV, -1];
  if (maxChunks(a, 2) > 0) bufId[2] = b.tmpBuffer('scratch', maxChunks(a, 2) * chunkBytes);
  let maxCnt = 1;
  for (let i = 0; i < a.numSteps; i++) maxCnt = Math.max(maxCnt, a.stepCnt[i]);
  const stageSlot = maxCnt * chunkBytes;
  const stage = b.tmpBuffer('stage', stageSlot * Math.max(1, maxTbs));
  const noData = b.region(RECV, 0, 0);

  let opStep = new Int32Array(Math.max(64, b.numOps));
  const note = (op: number, step: number): void => {
    if (op >= opStep.length) opStep = resized(opStep, 2 * op + 2);
    opStep[op] = step;
  };
  // Waiting steps of each step (linked lists over the GPU's steps).
  const waitHead = new Int32Array(a.numSteps).fill(-1);
  const waitNext = new Int32Array(a.numSteps).fill(-1);
  for (let g = 0; g < a.ngpus; g++) {
    const t0 = a.gpuFirstTb[g];
    for (let t = t0; t < a.gpuFirstTb[g + 1]; t++) {
      for (let i = a.tbFirstStep[t]; i < a.tbFirstStep[t + 1]; i++) {
        if (a.stepDepTb[i] < 0) continue;
        const p = a.tbFirstStep[t0 + a.stepDepTb[i]] + a.stepDepStep[i];
        waitNext[i] = waitHead[p];
        waitHead[p] = i;
      }
    }
  }
  for (let g = 0; g < a.ngpus; g++) {
    const t0 = a.gpuFirstTb[g];
    const firstStep = a.tbFirstStep[t0];
    const inputOffset = custom ? 0 : inputPlacement({ inPlace }, part, g).byteOffset;
    const region = (buf: number, off: number, cnt: number): number => b.region(bufId[buf], (buf === 0 ? inputOffset : 0) + off * chunkBytes, cnt * chunkBytes);
    for (let t = t0; t < a.gpuFirstTb[g + 1]; t++) {
      const stream = t - t0;
      const p = b.on(g, stream);
      const tag = a.tbChan[t];
      const to = a.tbSend[t];
      const from = a.tbRecv[t];
      for (let i = a.tbFirstStep[t]; i < a.tbFirstStep[t + 1]; i++) {
        const before = b.numOps;
        if (a.stepDepTb[i] >= 0) p.recv(g, noData, DEPENDENCY_TAG + i - firstStep);
        const cnt = a.stepCnt[i];
        const src = a.stepSrcBuf[i] < 3 ? region(a.stepSrcBuf[i], a.stepSrcOff[i], cnt) : -1;
        const dst = a.stepDstBuf[i] < 3 ? region(a.stepDstBuf[i], a.stepDstOff[i], cnt) : -1;
        const staged = a.stepType[i] >= Step.rrs && a.stepType[i] <= Step.rrcs ? b.region(stage, stream * stageSlot, cnt * chunkBytes) : -1;
        switch (a.stepType[i]) {
          case Step.s:
            p.send(to, src, tag);
            break;
          case Step.r:
            p.recv(from, dst, tag);
            break;
          case Step.re:
            p.reduce(src, dst);
            break;
          case Step.cpy:
            p.copy(src, dst);
            break;
          case Step.rcs:
            p.recv(from, dst, tag).send(to, dst, tag);
            break;
          case Step.rrs:
            p.recv(from, staged, tag).reduce(src, staged).send(to, staged, tag);
            break;
          case Step.rrc:
          case Step.rrcs:
            // dst = src + received: in place when src is dst (the usual case), else through the stage.
            if (src === dst) p.recv(from, staged, tag).reduce(staged, dst);
            else p.recv(from, staged, tag).reduce(src, staged).copy(staged, dst);
            if (a.stepType[i] === Step.rrcs) p.send(to, dst, tag);
            break;
          default: // nop: only its dependency
        }
        for (let w = waitHead[i]; w >= 0; w = waitNext[w]) p.send(g, noData, DEPENDENCY_TAG + w - firstStep);
        for (let op = before; op < b.numOps; op++) note(op, i);
      }
    }
  }
  const schedule = b.finish();
  return { schedule, algo: a, chunkBytes, opStep: opStep.subarray(0, schedule.numOps) };
}

function checkRedop(a: MscclAlgo, op: ReduceOp | undefined): ReduceOp {
  if (a.redop === undefined) return op ?? 'sum';
  const named = a.redop.toLowerCase() as ReduceOp;
  if (!['sum', 'prod', 'max', 'min'].includes(named)) throw new InputError('msccl.algo.redop', a.redop, 'sum, prod, max or min');
  if (op !== undefined && op !== named) throw new InputError('op', op, `${named} (the file's redop) or nothing`);
  return named;
}

function maxThreadBlocks(a: MscclAlgo): number {
  let m = 0;
  for (let g = 0; g < a.ngpus; g++) m = Math.max(m, a.gpuFirstTb[g + 1] - a.gpuFirstTb[g]);
  return m;
}

function maxChunks(a: MscclAlgo, buf: number): number {
  let m = 0;
  for (let g = 0; g < a.ngpus; g++) m = Math.max(m, a.gpuChunks[3 * g + buf]);
  return m;
}

/**
 * Bytes of one chunk: the collective's input bytes on gpu 0 over its input chunks (custom: the
 * given input bytes over i_chunks), checked against every GPU's declared buffers.
 */
function chunkSize(a: MscclAlgo, b: ScheduleBuilder, size: number, custom: boolean): number {
  const part = b.parts[0];
  const elem = isReduction(part.collective) ? DTYPE_BYTES[b.dtype] : 1;
  const declared = (g: number, buf: number): number => a.gpuChunks[3 * g + buf];
  const firstInput = declared(0, 0) || a.nchunksperloop;
  const inputBytes = custom ? size : ioBytes(part, 0).send;
  const chunk = inputBytes / firstInput;
  if (!(Number.isInteger(chunk) && chunk > 0 && chunk % elem === 0)) {
    const what = custom ? 'bytes of one gpu\'s input buffer' : `${part.collective} size`;
    throw new InputError('size', size, `a ${what} that splits into ${firstInput} chunks of a whole number of ${elem === 1 ? 'bytes' : `${elem}-byte ${b.dtype} elements`} (a multiple of ${firstInput * elem} bytes${custom ? '' : ` of input`})`);
  }
  if (custom) return chunk;
  for (let g = 0; g < a.ngpus; g++) {
    const io = ioBytes(part, g);
    const expect = [io.send / chunk, io.recv / chunk];
    for (const buf of [0, 1]) {
      const d = declared(g, buf);
      // In place, MSCCL declares no separate output (o_chunks="0"); an absent count is not checked.
      if (d === 0 || d === expect[buf]) continue;
      throw new InputError(`msccl.gpu[${g}].${buf === 0 ? 'i' : 'o'}_chunks`, d, `${expect[buf]} (the ${part.collective} ${buf === 0 ? 'input' : 'output'} of gpu ${g}, ${buf === 0 ? io.send : io.recv} bytes, in ${chunk}-byte chunks)`);
    }
  }
  return chunk;
}

/** Appends the MSCCL step to each "op #N" an executor or engine message names. */
export function nameSteps(m: MscclSchedule, message: string): string {
  return message.replace(/op #(\d+)/g, (text, id: string) => {
    const op = Number(id);
    return op < m.opStep.length ? `${text} = msccl ${describeStep(m.algo, m.opStep[op])}` : text;
  });
}
