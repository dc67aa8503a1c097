/** The commands a sweep can run (no imports: loaded by both the CLI and the pool threads). */
export const SWEEP_KINDS = ['run', 'traffic', 'topo', 'verify'] as const;
export type SweepKind = (typeof SWEEP_KINDS)[number];
