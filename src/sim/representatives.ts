/**
 * Issue 29: a collective whose algorithm declares its rank symmetry (collectives/registry.ts
 * `Algorithm.rotation`: the ring allreduce and reduce-scatter with equal segments, the ring
 * allgather, pairwise alltoall with separate buffers, by XOR in XOR order, seed 000's hop-grouped
 * alltoall on a torus by translations of its coordinates) is timed from its representatives'
 * streams alone, so a 16,384-rank ring (1.34 G schedule ops) never builds, lowers or checks its
 * schedule. Taken when the run qualifies for symmetry (sim/flow/symmetry.ts `declaredQuotient`: the
 * same conditions and route checks as the full quotient) and either the schedule would exceed
 * `REPRESENTATIVES_AUTO_OPS` (`symmetry: auto`) or `symmetry: representatives` asks for it. Otherwise the
 * normal path runs, and prepare()'s refusal of an oversized schedule applies as before.
 */
import { declaredRotation, type BuildRequest } from '../collectives/registry.js';
import { isRooted, sizeMeaning } from '../collectives/types.js';
import { demandOf } from './bounds/index.js';
import { MAX_FLOW_OPS } from './flow/collective-run.js';
import { knownScheduleSize } from '../collectives/registry.js';
import { runFlowDeclared } from './flow/run.js';
import type { FlowRunOutput, FlowTraceRecorder } from './flow/engine.js';
import { declaredQuotient } from './flow/symmetry.js';
import { resolveFlowModel, type FlowModelOptions } from './program/model.js';
import { rotationProgram } from './program/from-rotation.js';
import type { RunRequest } from './request.js';
import type { RunResult } from './result.js';
import type { RoutingFunction } from '../routing/types.js';

/**
 * Most ops the representatives' program may hold (2^25, about 4 GiB at 120 bytes an op): past it the
 * path is not taken and the run is refused as before. The 32,768-rank ring on fattree:k=32,levels=3
 * has 1,024 representatives (H: the 32 rotations of the top digit), 168 M ops: refused.
 */
export const MAX_REPRESENTATIVE_OPS = 2 ** 25;

/**
 * From this many schedule ops (2^24) `symmetry: auto` takes the representatives' path whenever the
 * run qualifies, not only past the op limit: the quotient it times is the one the full path would
 * extract (same ops, same routes, same rates), so makespan, finishes, channel bytes and the bound
 * are identical (tests: representatives.test.ts), while building, lowering and checking a schedule
 * this large costs more than timing its representatives (16³ pairwise alltoall: 33.5 M ops, about
 * 20 CPU s and 1.5 GiB of its 145 s; the 4,096-host fat tree's: 11 of its 11.3 s). Below it every run
 * keeps its schedule and per-op views.
 */
export const REPRESENTATIVES_AUTO_OPS = 2 ** 24;

/**
 * Whether a request may take the representative-only path, from the request alone (before routing):
 * flow level, a named collective whose algorithm declares its rotation, no noise, barriers, failures
 * or rank mapping (each breaks the symmetry), symmetry not off. prepare() defers the oversized
 * refusal of such a request to the run, which refuses it there if the path is not taken.
 */
export function representativeCandidate(req: RunRequest, engine: 'flow' | 'packet', build: BuildRequest | undefined, model: FlowModelOptions): boolean {
  if (engine !== 'flow' || build === undefined) return false;
  if (req.noise !== undefined || req.barriers === true || req.fail !== undefined) return false;
  if (req.mapping !== undefined && req.mapping !== 'identity') return false;
  if (model.symmetry === 'off') return false;
  return declaredRotation(build) !== undefined;
}

export interface RepresentativeRunRequest {
  readonly build: BuildRequest;
  readonly routing: RoutingFunction;
  readonly model: FlowModelOptions;
  readonly trace?: FlowTraceRecorder;
  readonly progress?: (fraction: number) => void;
}

/** The run from the representatives alone, or undefined when the path is not taken (the normal path then runs). */
export function runRepresentatives(req: RepresentativeRunRequest): (RunResult & { readonly raw: FlowRunOutput }) | undefined {
  const { build, routing } = req;
  const t = build.topology;
  const model = resolveFlowModel(req.model, t, routing.params.split);
  if (model.symmetry === 'off') return undefined;
  const declared = declaredRotation(build);
  if (declared === undefined) return undefined;
  const estimate = knownScheduleSize(build);
  const needed = model.symmetry === 'representatives' || (estimate !== undefined && estimate.ops > Math.min(REPRESENTATIVES_AUTO_OPS, MAX_FLOW_OPS));
  if (!needed) return undefined;
  const N = t.numEndpoints;
  const sym = declaredQuotient(t, routing, model, rotationProgram(t, declared.streams), { trace: req.trace !== undefined, maxOps: MAX_REPRESENTATIVE_OPS });
  if (!sym.used) return undefined;
  // What workloadOf and scheduleDemands record of the built schedule (one part, the declared streams per rank; the schedule's -1 for no root or peer).
  const root = isRooted(build.collective) ? declared.root : -1;
  const peer = build.collective === 'one-to-one' ? declared.peer : -1;
  const workload = {
    collective: build.collective,
    algorithm: declared.algorithm,
    algorithm_spec: declared.spec,
    ...(declared.alias ? { algorithm_alias: declared.alias } : {}),
    ranks: N,
    size_bytes: build.size,
    size_meaning: sizeMeaning(build.collective),
    root,
    streams: declared.streams.streamsPerRank ?? 1,
    parts: 1,
  };
  const demands = [demandOf(build.collective, N, build.size, root, peer)];
  return runFlowDeclared({ topology: t, routing, model: { ...req.model, trace: req.trace, progress: req.progress }, workload, demands }, sym);
}
