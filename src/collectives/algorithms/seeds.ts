/**
 * The algorithms of the seed documents (and Meshwork's extension of seed 000): importing this
 * module registers them, one file each. See docs/seed-algorithms.md.
 */
import './alltoall/hop-grouped.js';
import './alltoall/per-step-barrier.js';
import './alltoall/dimension-ordered.js';
import './alltoall/xor-swap.js';
import './alltoall/fullmesh-turnaround.js';
import './broadcast/fullmesh-multicast.js';
import './broadcast/two-level-pipelined.js';
import './allreduce/fullmesh-turnaround.js';
import './reduce/fullmesh-turnaround.js';
import './scatter/fullmesh-two-group.js';
import './gather/fullmesh-two-group.js';
import './one-to-one/fullmesh-split.js';
import './allgather/fullmesh-turnaround.js';
import './fullmesh-adaptive.js';

export { gridShape, hopGroups, slabRegion } from './alltoall/axis-phases.js';
export type { GridShape, HopGroup, Direction } from './alltoall/axis-phases.js';
export { xorSwapPairs, emitXorSwapPair, XOR_SWAP_MAX_RANKS } from './alltoall/xor-swap.js';
export { fullMeshRefusal, turnaroundNodes, FULLMESH_MAX_RANKS } from './fullmesh.js';
export { adaptiveDecision, adaptiveControlUnit } from './fullmesh-adaptive.js';
export { fig9Offsets } from './alltoall/per-step-barrier.js';
export { planTwoLevel, blockLayout, leafRoles, r2Steps } from './broadcast/two-level-plan.js';
export type { Transfer, TwoLevelPlan, TwoLevelLayout, LeafRoles } from './broadcast/two-level-plan.js';
