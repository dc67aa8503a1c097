import type { Schedule } from './schedule.js';
import { OpKind } from './types.js';

/**
 * The first op (by op id) whose region reaches past the end of its buffer on its rank, described as
 * `collective verify` reports it, or undefined when every region lies within its buffer.
 *
 * Timing a schedule reads only how many bytes each op moves, never where they lie, so a schedule
 * file with an op past its buffer would be timed as if it were sound; only the data check (the
 * executor's 'bounds' problem) saw it. This is the same check without the data: each extent's last
 * byte in closed form (offset + (repeat − 1)·stride + (inner − 1)·inner stride + length), so a long
 * strided region costs one line per extent entry, not one per block.
 */
export function regionPastBuffer(s: Schedule): string | undefined {
  // Send and recv sizes per rank, each asked of the schedule once (alltoallv's sums a row of sizes).
  const ioCap = new Float64Array(2 * s.numRanks).fill(-1);
  const bufferBytes = (rank: number, buf: number): number => {
    if (buf >= 2) return s.bufferBytes(rank, buf);
    const i = 2 * rank + buf;
    if (ioCap[i] < 0) ioCap[i] = s.bufferBytes(rank, buf);
    return ioCap[i];
  };
  const past = (op: number, region: number): string | undefined => {
    if (region < 0) return undefined;
    const rank = s.opRank[op];
    const reach = (s.regRepeat[region] - 1) * s.regStride[region] + (s.regInner[region] - 1) * s.regInnerStride[region];
    for (let e = s.regStart[region], end = e + s.regCount[region]; e < end; e++) {
      const buf = s.extBuf[e];
      const last = s.extOff[e] + reach + s.extLen[e];
      const cap = bufferBytes(rank, buf);
      if (s.extLen[e] > 0 && last > cap) {
        return `rank ${rank} stream ${s.opStream[op]} op #${op} (${s.describeOp(op)}) reaches byte ${last - 1} of ${s.buffers[buf].name}, which holds ${cap} bytes on rank ${rank}`;
      }
    }
    return undefined;
  };
  for (let op = 0; op < s.numOps; op++) {
    const k = s.opKind[op];
    if (k === OpKind.Barrier || k === OpKind.Pace || k === OpKind.Wait) continue;
    const both = k === OpKind.Copy || k === OpKind.Reduce || k === OpKind.HwCollective;
    const found = past(op, s.dataRegion(op)) ?? (both ? past(op, s.targetRegion(op)) : undefined);
    if (found !== undefined) return found;
  }
  return undefined;
}
