/**
 * The names a workload request's schema (sim/request.ts) validates against, apart from the reader
 * so that the schema loads no protobuf codec (a `meshwork run` start-up never reads Chakra).
 */

/** The collectives a COMM_COLL node may name (CollectiveCommType), in Meshwork's spelling. */
export type ChakraCollective = 'allreduce' | 'reduce' | 'allgather' | 'gather' | 'scatter' | 'broadcast' | 'alltoall' | 'reduce-scatter' | 'barrier';

export const CHAKRA_COLLECTIVES: readonly ChakraCollective[] = ['allreduce', 'reduce', 'allgather', 'gather', 'scatter', 'broadcast', 'alltoall', 'reduce-scatter', 'barrier'];

/** Which dependencies order nodes: both (ASTRA-sim's feeder v3), or data only (Chakra's original feeder). */
export type DependencyKinds = 'both' | 'data' | 'ctrl';
export const DEPENDENCY_KINDS: readonly DependencyKinds[] = ['both', 'data', 'ctrl'];
