import type { Claim } from '../../report/checklist.js';
import type { Plot } from '../../report/plot.js';
import type { Table } from '../../report/table.js';

export const SEED_IDS = ['000', '001', '002', '003', '004'] as const;
export type SeedId = (typeof SEED_IDS)[number];

export interface ReproduceContext {
  /** Fewer points per curve and smaller sizes: the whole set in well under a minute. */
  readonly quick: boolean;
  /** Reports progress within the current seed: fraction in [0, 1] and what is running. */
  readonly progress: (fraction: number, label: string) => void;
}

/** Everything one seed's reproduction produced; every report view is built from this. */
export interface SeedReproduction {
  readonly claims: Claim[];
  readonly plots: Plot[];
  readonly tables: Table[];
  /** Every parameter and model choice that produced the numbers. */
  readonly params: Record<string, unknown>;
  /** Readings chosen, caveats, how points and sizes were picked. */
  readonly notes: string[];
  /** Parts that cannot run yet, each "not yet available: <what is missing>". */
  readonly unavailable: string[];
  /** One line for the demo's headline table: the most telling figure of this seed. */
  headline: string;
}

export interface SeedModule {
  readonly id: SeedId;
  /** Short title, e.g. "MDCE interconnection networks". */
  readonly title: string;
  /** The document: number, title, authors or assignee. */
  readonly document: string;
  run(ctx: ReproduceContext): SeedReproduction | Promise<SeedReproduction>;
}

/** An empty reproduction to fill in. */
export function emptyReproduction(): SeedReproduction {
  return { claims: [], plots: [], tables: [], params: {}, notes: [], unavailable: [], headline: '' };
}

/**
 * Why a claim re-runs with its whole seed: a seed module computes its claims from runs they share,
 * and no claim has a study of its own. Here rather than in the runner so a page can show it without loading the seeds.
 */
export function claimRerunScope(seed: SeedId): string {
  return `seed ${seed}'s claims come from runs they share, so none runs alone: this re-runs seed ${seed}'s study, the smallest that produces it`;
}
