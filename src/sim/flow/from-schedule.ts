/**
 * Lowers a schedule of the collectives IR into the flow engine's FlowProgram: one stream per
 * (rank, stream) program in program order; sends and receives carry their region's byte count;
 * barrier and hw groups become keys (a barrier completes when every stream that uses the group has
 * reached its k-th barrier on it, as the IR defines); route hints keep their node ids, and a `via`
 * hint is a cut-through turnaround in the switch (the IR's reading: nothing passes through memory).
 */
import type { Schedule } from '../../collectives/schedule.js';
import { OpKind as IrOp, HINT_KINDS } from '../../collectives/types.js';
import { FlowProgramBuilder, type FlowProgram, type FlowRouteHint } from './program.js';

export function lowerSchedule(schedule: Schedule): FlowProgram {
  // One flow op per schedule op, so the columns are sized once.
  const b = new FlowProgramBuilder(schedule.numRanks, schedule.numOps);
  // Schedule hint id -> program hint id (-1: direct). The IR interns hints, so they are added
  // as they are, without keying them again.
  const hints = new Int32Array(schedule.numHints);
  for (let h = 0; h < schedule.numHints; h++) {
    const kind = HINT_KINDS[schedule.hintKind[h]];
    const nodes = Array.from(schedule.hintNodes.subarray(schedule.hintStart[h], schedule.hintStart[h + 1]));
    const hint: FlowRouteHint | undefined = kind === 'direct' ? undefined : kind === 'via' ? { kind: 'via', nodes, turnaround: 'switch' } : { kind: 'path', nodes };
    hints[h] = hint ? b.addHint(hint) : -1;
  }
  const regionBytes = new Float64Array(schedule.numRegions);
  for (let r = 0; r < schedule.numRegions; r++) regionBytes[r] = schedule.regionBytes(r);
  const groupKeys = Array.from({ length: schedule.numGroups }, (_, g) => `group ${g}`);
  const { start, order } = schedule.programs();
  const streams = schedule.streams;
  for (let p = 0; p < schedule.numRanks * streams; p++) {
    // Streams with no operations still exist in the IR; the engine needs only those that act.
    if (start[p] === start[p + 1]) continue;
    b.beginStream(Math.floor(p / streams), p % streams);
    for (let i = start[p]; i < start[p + 1]; i++) {
      const op = order[i];
      switch (schedule.opKind[op]) {
        case IrOp.Send: {
          const peer = schedule.opPeer[op];
          const to = peer >= 0 ? peer : Array.from(schedule.destRanks.subarray(schedule.destStart[-peer - 1], schedule.destStart[-peer])) ;
          const h = schedule.opC[op];
          b.send(to, regionBytes[schedule.opA[op]], schedule.opTag[op], h >= 0 ? hints[h] : -1);
          break;
        }
        case IrOp.Recv:
          b.recv(schedule.opPeer[op], regionBytes[schedule.opA[op]], schedule.opTag[op]);
          break;
        case IrOp.Copy:
          b.copy(regionBytes[schedule.opA[op]]);
          break;
        case IrOp.Reduce:
          b.reduce(regionBytes[schedule.opA[op]]);
          break;
        case IrOp.Barrier:
          b.barrier(groupKeys[schedule.opPeer[op]]);
          break;
        case IrOp.Pace:
          b.pace(schedule.paceValues[schedule.opA[op]]);
          break;
        case IrOp.HwCollective: {
          const region = schedule.opA[op];
          b.hwCollective(region >= 0 ? regionBytes[region] : 0, groupKeys[schedule.opPeer[op]]);
          break;
        }
        default:
          throw new Error(`unknown schedule op kind ${schedule.opKind[op]}`);
      }
    }
  }
  return b.build();
}
