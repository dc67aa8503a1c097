/**
 * Verifying and timing an imported MSCCL algorithm: the executor's messages name MSCCL steps, and
 * timed runs go through `simulate()` with the file's protocol applied (wire bytes per payload
 * byte, and the per-message overhead as α unless the caller sets α).
 */
import { executeSchedule, type ExecuteOptions, type ExecutionReport } from '../../collectives/executor.js';
import { OpKind } from '../../collectives/types.js';
import type { Topology } from '../../topology/graph.js';
import { lowerSchedule } from '../../sim/program/from-schedule.js';
import type { FlowProgram } from '../../sim/program/program.js';
import type { FlowModelOptions } from '../../sim/program/model.js';
import { simulate, type SimulateRequest, type SimulateResult } from '../../sim/simulate.js';
import { MSCCL_PROTOCOLS, type MscclProtocol } from './format.js';
import { nameSteps, type MscclSchedule } from './to-schedule.js';

/**
 * Runs the schedule on real buffers: `pass` means the collective's postcondition holds byte for
 * byte (for `custom`, which has none: every step completed). Problems name the MSCCL step.
 */
export function verifyMscclSchedule(m: MscclSchedule, opts: ExecuteOptions = {}): ExecutionReport {
  const report = executeSchedule(m.schedule, { ...opts, postcondition: m.algo.collective !== 'custom' });
  for (const p of report.problems) p.message = nameSteps(m, p.message);
  // A wrong output slot is named in the file's own terms too: the gpu and its output chunk(s).
  // (An in-place reduce-scatter is imported out of place, so its recv offsets are not MSCCL's.)
  if (!(m.algo.inplace && m.algo.collective === 'reduce-scatter')) {
    const G = report.granularity;
    for (const x of report.mismatches) {
      const first = Math.floor(x.byte / m.chunkBytes);
      const last = Math.floor((x.byte + (x.slots ?? 1) * G - 1) / m.chunkBytes);
      x.text += ` (MSCCL gpu ${x.rank} output chunk ${first === last ? first : `${first}..${last}`})`;
    }
  }
  return report;
}

/** Bytes on the wire for `payload` bytes under a protocol (whole lines: LL 16 B per 8, LL128 128 B per 120). */
export function wireBytes(payload: number, proto: MscclProtocol): number {
  const { payloadBytes, lineBytes } = MSCCL_PROTOCOLS[proto];
  return payloadBytes === lineBytes ? payload : Math.ceil(payload / payloadBytes) * lineBytes;
}

/** The schedule lowered for the engines, each message carrying its protocol's wire bytes. */
export function mscclProgram(m: MscclSchedule, topology: Topology): FlowProgram {
  const program = lowerSchedule(m.schedule, topology);
  const proto = m.algo.proto;
  if (proto === 'Simple') return program;
  for (let op = 0; op < program.numOps; op++) {
    const k = program.opKind[op];
    if (k === OpKind.Send || k === OpKind.Recv) program.opBytes[op] = wireBytes(program.opBytes[op], proto);
  }
  return program;
}

export type MscclSimulateRequest = Omit<SimulateRequest, 'schedule' | 'program' | 'workload' | 'demands'>;

/** The time model with the protocol's per-message overhead as α, unless the caller gave α. */
export function mscclModel(m: MscclSchedule, model: FlowModelOptions = {}): FlowModelOptions {
  return { ...model, alpha: model.alpha ?? MSCCL_PROTOCOLS[m.algo.proto].overhead_s };
}

/** Times an imported algorithm through `simulate()`; the result records the protocol in its model (α) and algorithm spec. */
export function simulateMscclSchedule(m: MscclSchedule, req: MscclSimulateRequest): SimulateResult {
  return simulate({ ...req, model: mscclModel(m, req.model), schedule: m.schedule, program: mscclProgram(m, req.topology) });
}
