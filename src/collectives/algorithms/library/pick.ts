/**
 * `nccl` and `rccl` for allreduce, allgather and reduce-scatter: the library's own choice. The
 * tuning model (tuning.ts) predicts every candidate (ring or hierarchical, each protocol) for this
 * size and topology and takes the fastest, as NCCL's ncclTopoGetAlgoTime does; the schedule built
 * is the pick's, and its algorithm spec records the pick (e.g. `nccl-ring:channels=8,proto=LL128,machine=auto`),
 * so re-running that spec gives the same schedule.
 */
import { findAlgorithm, parseParams, registerAlgorithm } from '../../registry.js';
import { Spec } from '../../../util/spec.js';
import { DTYPE_BYTES, type CollectiveKind } from '../../types.js';
import { MACHINE_PARAM } from './layout.js';
import { LIBRARY_NAMES, tuneCollective, type LibraryName } from './tuning.js';

function registerPicker(library: LibraryName, collective: CollectiveKind): void {
  registerAlgorithm({
    name: library,
    collective,
    description: `what ${library.toUpperCase()} runs: its tuning model picks the algorithm (ring, hierarchical; where the preset has their constants tree, NVLS, PAT) and LL, LL128 or Simple by size and topology${library === 'rccl' ? ' (and, on a machine whose preset lists them, the MSCCL algorithms RCCL ships, where a call matches one)' : ''}`,
    supportsText: 'any rank count and topology',
    source: `${library.toUpperCase()} tuning model (issue 25)`,
    params: [MACHINE_PARAM],
    supports: () => undefined,
    build(ctx, newBuilder) {
      const machine = ctx.params.machine as string;
      const choice = tuneCollective({ topology: ctx.topology, collective, size: ctx.size, library, machine, elementBytes: DTYPE_BYTES[ctx.dtype] });
      const spec = Spec.parse(`${choice.pick.spec}${choice.pick.spec.includes(':') ? ',' : ':'}machine=${machine}`, 'algorithm');
      const alg = findAlgorithm(collective, spec.family)!;
      const params = parseParams(alg, spec);
      return alg.build({ ...ctx, params, spec: spec.text }, (overrides = {}) => newBuilder({ algorithmSpec: spec.text, ...overrides }));
    },
  });
}

for (const library of LIBRARY_NAMES) for (const collective of ['allreduce', 'allgather', 'reduce-scatter'] as const) registerPicker(library, collective);
