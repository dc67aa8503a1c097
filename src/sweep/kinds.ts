/** The commands a sweep can run (`workload` is `meshwork workload run`) (no imports: loaded by both the CLI and the pool threads). */
export const SWEEP_KINDS = ['run', 'traffic', 'topo', 'verify', 'workload'] as const;
export type SweepKind = (typeof SWEEP_KINDS)[number];
