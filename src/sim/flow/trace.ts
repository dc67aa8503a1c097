/**
 * Chrome trace-event output (opens in Perfetto and chrome://tracing): one track per rank stream
 * (process = rank, thread = stream) with one slice per operation, plus counter tracks of the
 * aggregate rate per channel class ("links"). Times in microseconds, as the format requires.
 */
import { LimitError } from '../../util/errors.js';
import type { Topology } from '../../topology/graph.js';
import type { FlowRunOutput, FlowTraceRecorder } from './engine.js';
import { type FlowProgram } from '../program/program.js';
import { OP_NAMES } from '../../collectives/types.js';

/** Largest number of operations written to a trace (a larger trace would not open). */
export const TRACE_MAX_OPS = 1_000_000;

export class RateRecorder implements FlowTraceRecorder {
  readonly times: number[] = [];
  readonly samples: Float64Array[] = [];
  rates(t: number, perClass: Float64Array): void {
    this.times.push(t);
    this.samples.push(perClass.slice());
  }
}

export function checkTraceSize(program: FlowProgram): void {
  if (program.numOps > TRACE_MAX_OPS) throw new LimitError('trace', `${program.numOps} operations`, `${TRACE_MAX_OPS} operations in a trace`);
}

export function chromeTrace(topology: Topology, program: FlowProgram, out: FlowRunOutput, rates: RateRecorder): { traceEvents: unknown[]; displayTimeUnit: string } {
  checkTraceSize(program);
  const us = 1e6;
  const events: unknown[] = [];
  const linksPid = program.numRanks;
  for (let r = 0; r < program.numRanks; r++) events.push({ ph: 'M', name: 'process_name', pid: r, args: { name: `rank ${r}` } });
  events.push({ ph: 'M', name: 'process_name', pid: linksPid, args: { name: 'links (bytes/s per channel class)' } });
  for (let s = 0; s < program.numStreams; s++) {
    const pid = program.streamRank[s];
    const tid = program.streamLocal[s];
    events.push({ ph: 'M', name: 'thread_name', pid, tid, args: { name: `stream ${tid}` } });
    for (let o = program.opStart[s]; o < program.opStart[s + 1]; o++) {
      const start = out.opStart[o];
      const end = out.opEnd[o];
      if (Number.isNaN(start) || Number.isNaN(end)) continue;
      events.push({ ph: 'X', name: OP_NAMES[program.opKind[o]], cat: 'op', pid, tid, ts: start * us, dur: Math.max(0, end - start) * us, args: { op: o - program.opStart[s], bytes: program.opBytes[o] } });
    }
  }
  for (let i = 0; i < rates.times.length; i++) {
    const args: Record<string, number> = {};
    topology.classNames.forEach((name, k) => (args[name] = rates.samples[i][k]));
    events.push({ ph: 'C', name: 'rate', pid: linksPid, ts: rates.times[i] * us, args });
  }
  return { traceEvents: events, displayTimeUnit: 'ns' };
}
