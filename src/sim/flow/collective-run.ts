/**
 * How large a collective schedule the engines attempt: the limit and the estimate it is held to,
 * before the schedule is built. The refusal itself is prepare()'s (sim/prepare.ts `refuseOversized`).
 */

/**
 * Most schedule ops the flow level attempts. Each op costs about 120 bytes end to end (schedule
 * columns, FlowProgram columns, engine state per op; measured: 36.8 M ops of hop-grouped on
 * torus:32x32x32 peak at 4.5 GiB), so 2^27 ops is about 16 GiB: a run the limit accepts fits the
 * 24 GiB machines Meshwork is built and tested on (2^28, about 32 GiB, let a run past ~2^27.5 ops
 * exhaust their memory instead of being refused). A direct alltoall lists a send and a receive per
 * block: the limit is reached at 8,193 ranks, while an axis-phase alltoall on 32×32×32 (37 M ops)
 * runs. Checked before the schedule is built.
 */
export const MAX_FLOW_OPS = 2 ** 27;

