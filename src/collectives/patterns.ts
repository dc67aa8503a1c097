/**
 * Input patterns and postconditions. Buffers are arrays of slots of `granularity` bytes (one byte
 * in bytes mode for data-movement collectives, one element for reductions, the gcd of all extents
 * in chunk-identity mode). A data-movement slot holds the identity of the input slot it came from,
 * id = src * inputStride + inputSlot + 1 (0 = never written), so every misplaced slot names where it
 * came from. A reduction slot holds a value in the schedule's dtype, derived from (rank, element).
 */
import { hash32 } from '../util/rng.js';
import { alltoallvLayout, type Part, type Schedule } from './schedule.js';
import { DTYPE_BYTES, Dtype, ReduceOp, isReduction } from './types.js';

export const UNINIT_INT32 = 0x5a5a5a5a;

export function reduceFn(op: ReduceOp, dtype: Dtype): (a: number, b: number) => number {
  const f32 = dtype === 'float32';
  const round = f32 ? Math.fround : (x: number): number => x;
  if (dtype === 'int32') {
    switch (op) {
      case 'sum':
        return (a, b) => (a + b) | 0;
      case 'prod':
        return (a, b) => Math.imul(a, b);
      case 'max':
        return (a, b) => (a > b ? a : b);
      case 'min':
        return (a, b) => (a < b ? a : b);
      case 'bxor':
        return (a, b) => a ^ b;
      case 'band':
        return (a, b) => a & b;
      case 'bor':
        return (a, b) => a | b;
    }
  }
  switch (op) {
    case 'sum':
      return (a, b) => round(a + b);
    case 'prod':
      return (a, b) => round(a * b);
    case 'max':
      return (a, b) => Math.max(a, b);
    case 'min':
      return (a, b) => Math.min(a, b);
    default:
      return () => Number.NaN;
  }
}

/** Reduction input value of element `e` on rank `r`. Floats are small exact binary fractions (powers of two for prod). */
export function inputValue(dtype: Dtype, op: ReduceOp, rank: number, e: number): number {
  const h = hash32(rank, e, 0x51ed);
  if (dtype === 'int32') return h | 0;
  if (op === 'prod') return [0.5, 1, 2][h % 3];
  return ((h % 2001) - 1000) / 64;
}

/** Relative tolerance (of the sum of magnitudes) for float reductions; int32 is exact. */
export function tolerance(dtype: Dtype): number {
  return dtype === 'float32' ? 1e-5 : dtype === 'float64' ? 1e-12 : 0;
}

export interface SlotOrigin {
  rank: number;
  /** Block index in the source's input (size convention block), and byte offset within it. */
  block: number;
  offset: number;
}

/** Where the input of local rank `local` sits: buffer 0 (send) at 0, or recv at an offset when in place. */
export function inputPlacement(s: Pick<Schedule, 'inPlace'>, part: Part, local: number): { buf: number; byteOffset: number } {
  if (!s.inPlace) return { buf: 0, byteOffset: 0 };
  const c = part.collective;
  const off = c === 'allgather' || (c === 'gather' && part.ranks[local] === part.root) ? local * part.size : 0;
  return { buf: 1, byteOffset: off };
}

/** Block size used to describe origins: the part's block for block collectives, the whole buffer otherwise. */
export function originBlockBytes(part: Part): number {
  const c = part.collective;
  if (c === 'alltoall' || c === 'allgather' || c === 'gather' || c === 'scatter') return Math.max(1, part.size);
  if (c === 'reduce-scatter') return Math.max(1, part.size / part.ranks.length);
  if (c === 'alltoallv') return Math.max(1, alltoallvLayout(part).sendTotal.reduce((a, b) => Math.max(a, b), 0));
  return Math.max(1, part.size);
}

/**
 * Expected content of output byte `o` of local rank `j` for data-movement collectives, as
 * (source global rank, input byte), or undefined when the byte is not part of the output.
 */
export function expectedOrigin(part: Part, j: number, o: number): { src: number; byte: number } | undefined {
  const B = part.size;
  const n = part.ranks.length;
  const me = part.ranks[j];
  switch (part.collective) {
    case 'alltoall':
      return { src: part.ranks[Math.floor(o / B)], byte: j * B + (o % B) };
    case 'alltoallv': {
      // The sender i whose block [rdispl, rdispl + size) holds byte o of j's receive buffer.
      const layout = layoutOf(part);
      const sizes = part.sizes!;
      for (let i = 0; i < n; i++) {
        const at = layout.rdispl[i * n + j];
        if (o >= at && o < at + sizes[i * n + j]) return { src: part.ranks[i], byte: layout.sdispl[i * n + j] + (o - at) };
      }
      return undefined;
    }
    case 'allgather':
      return { src: part.ranks[Math.floor(o / B)], byte: o % B };
    case 'gather':
      return me === part.root ? { src: part.ranks[Math.floor(o / B)], byte: o % B } : undefined;
    case 'scatter':
      return { src: part.root, byte: j * B + o };
    case 'broadcast':
      return { src: part.root, byte: o };
    case 'one-to-one':
      return me === part.peer ? { src: part.root, byte: o } : undefined;
    default:
      void n;
      return undefined;
  }
}

/** Output bytes of local rank j (where the postcondition is checked). */
export function outputBytes(part: Part, j: number): number {
  const me = part.ranks[j];
  const n = part.ranks.length;
  switch (part.collective) {
    case 'alltoall':
    case 'allgather':
      return n * part.size;
    case 'alltoallv':
      return layoutOf(part).recvTotal[j];
    case 'gather':
      return me === part.root ? n * part.size : 0;
    case 'scatter':
      return part.size;
    case 'broadcast':
    case 'allreduce':
      return part.size;
    case 'reduce':
      return me === part.root ? part.size : 0;
    case 'reduce-scatter':
      return part.size / n;
    case 'one-to-one':
      return me === part.peer ? part.size : 0;
    case 'barrier':
      return 0;
  }
}

/** For reductions: the input element index whose reduction over ranks belongs in output element e of local rank j. */
export function expectedElement(part: Part, j: number, e: number, elemBytes: number): number {
  if (part.collective === 'reduce-scatter') return (j * part.size) / part.ranks.length / elemBytes + e;
  return e;
}

// The layout of each alltoallv part, computed once (expectedOrigin runs per output byte).
const layouts = new WeakMap<Part, ReturnType<typeof alltoallvLayout>>();
function layoutOf(part: Part): ReturnType<typeof alltoallvLayout> {
  let l = layouts.get(part);
  if (!l) layouts.set(part, (l = alltoallvLayout(part)));
  return l;
}

export function isMovement(part: Part): boolean {
  return !isReduction(part.collective) && part.collective !== 'barrier';
}

export function elementBytes(s: Schedule): number {
  return DTYPE_BYTES[s.dtype];
}
