/**
 * MSCCL-XML vocabulary: step types, buffers, protocols, and the parsed algorithm as flat columns
 * (one row per thread block and per step: a million-step file holds no per-step objects).
 * Semantics and sources: docs/interop.md, "MSCCL-XML".
 */
import type { CollectiveKind } from '../../collectives/types.js';

/** Step types as MSCCL writes them (index = the code stored in `stepType`). */
export const STEP_TYPES = ['s', 'r', 're', 'rcs', 'rrs', 'rrc', 'rrcs', 'cpy', 'nop'] as const;
export type StepType = (typeof STEP_TYPES)[number];
export const Step = { s: 0, r: 1, re: 2, rcs: 3, rrs: 4, rrc: 5, rrcs: 6, cpy: 7, nop: 8 } as const;

/** Step codes that send to the thread block's `send` peer. */
export const SENDS: readonly boolean[] = STEP_TYPES.map((t) => t === 's' || t === 'rcs' || t === 'rrs' || t === 'rrcs');
/** Step codes that receive from the thread block's `recv` peer. */
export const RECEIVES: readonly boolean[] = STEP_TYPES.map((t) => t.startsWith('r') && t !== 're');
/** Step codes that read their local source chunks (srcbuf/srcoff). */
export const READS_SRC: readonly boolean[] = STEP_TYPES.map((t) => t === 's' || t === 're' || t === 'rrs' || t === 'rrc' || t === 'rrcs' || t === 'cpy');
/** Step codes that write their local destination chunks (dstbuf/dstoff). */
export const WRITES_DST: readonly boolean[] = STEP_TYPES.map((t) => t === 'r' || t === 're' || t === 'rcs' || t === 'rrc' || t === 'rrcs' || t === 'cpy');

/** Buffers: input, output, scratch (index = the code stored in the buffer columns). */
export const BUFFERS = ['i', 'o', 's'] as const;
export const NO_BUFFER = 255;

/** The `coll` spellings MSCCL files use, mapped to Meshwork collectives ('custom' has no postcondition). */
export const MSCCL_COLLECTIVES: Readonly<Record<string, CollectiveKind | 'custom'>> = {
  allreduce: 'allreduce',
  allgather: 'allgather',
  reducescatter: 'reduce-scatter',
  reduce_scatter: 'reduce-scatter',
  alltoall: 'alltoall',
  broadcast: 'broadcast',
  reduce: 'reduce',
  gather: 'gather',
  scatter: 'scatter',
  custom: 'custom',
};

/**
 * The wire protocols. A message of P payload bytes occupies P × lineBytes / payloadBytes on the
 * links (LL: 8 data bytes + 8 flag bytes per 16-byte line; LL128: 120 + 8 per 128-byte line;
 * Simple: the data alone, synchronised by separate flags) and costs `overhead_s` of per-message
 * latency: NCCL's own tuning model, hwLat[NVLink][Ring] (src/graph/tuning.cc: LL .47 µs, LL128
 * 1.9 µs, Simple 3.4 µs), so LL wins small messages and Simple large ones, as on hardware.
 */
export const MSCCL_PROTOCOLS = {
  Simple: { payloadBytes: 1, lineBytes: 1, overhead_s: 3.4e-6 },
  LL: { payloadBytes: 8, lineBytes: 16, overhead_s: 0.47e-6 },
  LL128: { payloadBytes: 120, lineBytes: 128, overhead_s: 1.9e-6 },
} as const;
export type MscclProtocol = keyof typeof MSCCL_PROTOCOLS;
export const PROTOCOL_NAMES = Object.keys(MSCCL_PROTOCOLS) as MscclProtocol[];

export interface MscclHeader {
  readonly name: string;
  readonly proto: MscclProtocol;
  readonly nchannels: number;
  readonly nchunksperloop: number;
  readonly ngpus: number;
  /** The `coll` attribute as written. */
  readonly coll: string;
  readonly collective: CollectiveKind | 'custom';
  readonly inplace: boolean;
  /** Optional attributes, as written (absent: undefined). */
  readonly outofplace?: boolean;
  readonly minBytes?: number;
  readonly maxBytes?: number;
  readonly redop?: string;
}

/** A parsed MSCCL algorithm: GPUs, thread blocks and steps in columns. */
export interface MscclAlgo extends MscclHeader {
  /** Chunks of the input, output and scratch buffers: gpuChunks[3g + b]. */
  readonly gpuChunks: Int32Array;
  /** Thread blocks of GPU g: gpuFirstTb[g] .. gpuFirstTb[g+1) (tb id = index - gpuFirstTb[g]). */
  readonly gpuFirstTb: Int32Array;
  readonly tbSend: Int32Array;
  readonly tbRecv: Int32Array;
  readonly tbChan: Int32Array;
  /** Steps of thread block t: tbFirstStep[t] .. tbFirstStep[t+1) (step s = index - tbFirstStep[t]). */
  readonly tbFirstStep: Int32Array;
  readonly stepType: Uint8Array;
  readonly stepSrcBuf: Uint8Array;
  readonly stepSrcOff: Int32Array;
  readonly stepDstBuf: Uint8Array;
  readonly stepDstOff: Int32Array;
  readonly stepCnt: Int32Array;
  /** The thread block id (on the same GPU) and step this step waits for, or -1. */
  readonly stepDepTb: Int32Array;
  readonly stepDepStep: Int32Array;
  readonly stepHasDep: Uint8Array;
  readonly numTbs: number;
  readonly numSteps: number;
}

/** Where a step is, for messages: "gpu 3 tb 1 step 4 (rrs)". */
export function describeStep(a: MscclAlgo, step: number): string {
  const tb = tbOfStep(a, step);
  const gpu = gpuOfTb(a, tb);
  return `gpu ${gpu} tb ${tb - a.gpuFirstTb[gpu]} step ${step - a.tbFirstStep[tb]} (${STEP_TYPES[a.stepType[step]]})`;
}

/** The thread block holding a step (binary search over tbFirstStep). */
export function tbOfStep(a: MscclAlgo, step: number): number {
  return upperBound(a.tbFirstStep, a.numTbs, step);
}

export function gpuOfTb(a: MscclAlgo, tb: number): number {
  return upperBound(a.gpuFirstTb, a.ngpus, tb);
}

/** The largest i < n with first[i] <= x (first is non-decreasing, first[0] = 0). */
function upperBound(first: Int32Array, n: number, x: number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (first[mid] <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
