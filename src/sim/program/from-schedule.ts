/**
 * Lowers a schedule of the collectives IR into the flow engine's FlowProgram: one stream per
 * (rank, stream) program in program order; sends and receives carry their region's byte count;
 * barrier and hw groups become keys (a barrier completes when every stream that uses the group has
 * reached its k-th barrier on it, as the IR defines); route hints keep their node ids, and a `via`
 * hint is a cut-through turnaround in the switch (the IR's reading: nothing passes through memory).
 */
import type { Schedule } from '../../collectives/schedule.js';
import { OpKind as IrOp, HINT_KINDS, sizeMeaning } from '../../collectives/types.js';
import type { Topology } from '../../topology/graph.js';
import { pathToPorts } from '../../routing/hints.js';
import { FlowProgramBuilder, type FlowProgram } from './program.js';

/** The barrier key of schedule group g: the declared programs (from-rotation.ts) name theirs alike, so both lowerings match op for op. */
export function groupKey(g: number): string {
  return `group ${g}`;
}

/**
 * With `topology`, explicit path hints become port walks (routing/hints.ts `ports`) shared by every
 * rank that walks the same way: hop-grouped on a 32×32×32 torus has 3 M distinct node paths but 93
 * walks, and 3 M hint objects cost a GiB of heap and much of the time in garbage collection. A send
 * whose path does not start at its rank's node or end at its destination's keeps the node path (the
 * engine then reports it).
 */
export function lowerSchedule(schedule: Schedule, topology?: Topology): FlowProgram {
  // One flow op per schedule op, so the columns are sized once.
  const b = new FlowProgramBuilder(schedule.numRanks, schedule.numOps);
  const nodesOf = (h: number): number[] => Array.from(schedule.hintNodes.subarray(schedule.hintStart[h], schedule.hintStart[h + 1]));
  // Schedule hint id -> program hint id (-1: direct; -2: not added yet). The IR interns hints,
  // so they are added as they are, without keying them again; node paths only when a send needs them.
  const hints = new Int32Array(schedule.numHints).fill(-2);
  // Schedule hint id -> distinct walk (-1: none), and distinct walk -> program hint id (-1: not added yet).
  const walks = new Int32Array(schedule.numHints).fill(-1);
  const walkIds = new Map<string, number>();
  const walkPorts: number[][] = [];
  const walkHint: number[] = [];
  const hintFor = (h: number): number => {
    if (hints[h] === -2) {
      const kind = HINT_KINDS[schedule.hintKind[h]];
      hints[h] = kind === 'direct' ? -1 : b.addHint(kind === 'via' ? { kind: 'via', nodes: nodesOf(h), turnaround: 'switch' } : { kind: 'path', nodes: nodesOf(h) });
    }
    return hints[h];
  };
  if (topology) {
    for (let h = 0; h < schedule.numHints; h++) {
      if (HINT_KINDS[schedule.hintKind[h]] !== 'path') continue;
      const ports = pathToPorts(topology, schedule.hintNodes.subarray(schedule.hintStart[h], schedule.hintStart[h + 1]));
      if (!ports || ports.length === 0) continue;
      const key = ports.join(',');
      let w = walkIds.get(key);
      if (w === undefined) {
        walkIds.set(key, (w = walkPorts.length));
        walkPorts.push(ports);
        walkHint.push(-1);
      }
      walks[h] = w;
    }
  }
  /** The program hint of a single-destination send from `rank` to `to` with schedule hint h. */
  const sendHint = (h: number, rank: number, to: number): number => {
    if (walks[h] >= 0 && topology) {
      const first = schedule.hintNodes[schedule.hintStart[h]];
      const last = schedule.hintNodes[schedule.hintStart[h + 1] - 1];
      if (first === topology.endpoints[rank] && last === topology.endpoints[to]) {
        const w = walks[h];
        if (walkHint[w] < 0) walkHint[w] = b.addHint({ kind: 'ports', ports: walkPorts[w] });
        return walkHint[w];
      }
    }
    return hintFor(h);
  };
  const regionBytes = new Float64Array(schedule.numRegions);
  for (let r = 0; r < schedule.numRegions; r++) regionBytes[r] = schedule.regionBytes(r);
  const groupKeys = Array.from({ length: schedule.numGroups }, (_, g) => groupKey(g));
  const { start, order } = schedule.programs();
  const streams = schedule.streams;
  // Program op id of each schedule op (for a wait's request), built only if a schedule waits for one.
  let programOp: Int32Array | undefined;
  for (let p = 0; p < schedule.numRanks * streams; p++) {
    // Streams with no operations still exist in the IR; the engine needs only those that act.
    if (start[p] === start[p + 1]) continue;
    b.beginStream(Math.floor(p / streams), p % streams);
    for (let i = start[p]; i < start[p + 1]; i++) {
      const op = order[i];
      if (schedule.opKind[op] === IrOp.Wait && schedule.waitTarget(op) >= 0 && !programOp) {
        // Ops are emitted one per schedule op in this order, so a program op id is a running count.
        programOp = new Int32Array(schedule.numOps);
        let k = 0;
        for (let q = 0; q < schedule.numRanks * streams; q++) for (let j = start[q]; j < start[q + 1]; j++) programOp[order[j]] = k++;
      }
      switch (schedule.opKind[op]) {
        case IrOp.Send: {
          const peer = schedule.opPeer[op];
          const to = peer >= 0 ? peer : Array.from(schedule.destRanks.subarray(schedule.destStart[-peer - 1], schedule.destStart[-peer]));
          const h = schedule.sendHint(op);
          const hint = h < 0 ? -1 : typeof to === 'number' && to < (topology?.numEndpoints ?? 0) ? sendHint(h, schedule.opRank[op], to) : hintFor(h);
          if (schedule.isNonBlocking(op)) b.isend(to as number, regionBytes[schedule.dataRegion(op)], schedule.opTag[op], hint);
          else b.send(to, regionBytes[schedule.dataRegion(op)], schedule.opTag[op], hint);
          if (schedule.isSeparateSend(op)) b.markSeparateSend();
          break;
        }
        case IrOp.Recv:
          if (schedule.isNonBlocking(op)) b.irecv(schedule.opPeer[op], regionBytes[schedule.dataRegion(op)], schedule.opTag[op]);
          else b.recv(schedule.opPeer[op], regionBytes[schedule.dataRegion(op)], schedule.opTag[op]);
          break;
        case IrOp.Wait: {
          const target = schedule.waitTarget(op);
          if (target < 0) b.waitall();
          else b.wait(programOp![target]);
          break;
        }
        case IrOp.Copy:
          b.copy(regionBytes[schedule.dataRegion(op)]);
          break;
        case IrOp.Reduce:
          b.reduce(schedule.reduceCharged(op) ? regionBytes[schedule.dataRegion(op)] : 0);
          break;
        case IrOp.Barrier:
          b.barrier(groupKeys[schedule.opPeer[op]]);
          break;
        case IrOp.Pace:
          b.pace(schedule.paceGap(op));
          break;
        case IrOp.HwCollective: {
          const region = schedule.dataRegion(op);
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

/** What ran, as recorded in a result: collective, algorithm, ranks, size and its meaning, root, streams. */
export function workloadOf(schedule: Schedule): Record<string, unknown> {
  const part = schedule.parts[0];
  return {
    collective: schedule.collective,
    algorithm: schedule.algorithm,
    algorithm_spec: schedule.algorithmSpec,
    ...(schedule.algorithmAlias ? { algorithm_alias: schedule.algorithmAlias } : {}),
    ranks: schedule.numRanks,
    size_bytes: part.size,
    size_meaning: sizeMeaning(part.collective),
    root: part.root,
    streams: schedule.streams,
    parts: schedule.parts.length,
  };
}
