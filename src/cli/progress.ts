/**
 * Progress bars for commands that can run for more than a couple of seconds: on stderr, only when
 * stderr is a terminal, and never for --json (machine output stays the only thing a caller reads).
 * The core reports fractions through callbacks; only this module knows about terminals.
 */
import { createRequire } from 'node:module';

/**
 * cli-progress is loaded when a bar is first drawn, not with the commands: most runs draw none
 * (stderr is not a terminal, or --json), and loading it (with Node's readline and string-width from
 * node_modules) was ~5 ms of every simulation command's start-up.
 */
let cliProgress: typeof import('cli-progress') | undefined;
const loadCliProgress = (): typeof import('cli-progress') => (cliProgress ??= createRequire(import.meta.url)('cli-progress') as typeof import('cli-progress'));

export interface Progress {
  /** Fraction done in [0, 1]; a fraction below one already shown is ignored (a bar never goes back). */
  update(fraction: number, detail?: string): void;
  stop(): void;
}

/** Steps of the bar: fine enough for a smooth ETA, coarse enough to redraw rarely. */
const STEPS = 1000;

const SILENT: Progress = { update: () => {}, stop: () => {} };

/** Before this much time and work, no ETA is claimed (`ETA …`): one early sample predicts nothing. */
const ETA_MIN_SECONDS = 2;
const ETA_MIN_FRACTION = 0.02;

/** 75 -> "1m15s", 3725 -> "1h02m". */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * The time left if the rest goes at the average pace so far. The fraction must be weighted by work
 * (callers pass cost-weighted fractions: seeds by measured cost, sweep points by estimatedCost):
 * cli-progress's own ETA, a moving window over the last updates, showed `ETA 15s` at 46 % of a
 * 2 min 15 s run, and `ETA NFs` (its "INF" cut short) before any rate was known (issue 28 item 10).
 */
export function etaText(elapsedSeconds: number, fraction: number): string {
  if (fraction >= 1) return '0s';
  if (elapsedSeconds < ETA_MIN_SECONDS || fraction < ETA_MIN_FRACTION) return '…';
  return formatDuration((elapsedSeconds * (1 - fraction)) / fraction);
}

export function progressBar(label: string, opts: { json?: boolean; force?: boolean } = {}): Progress {
  if (opts.json || !(process.stderr.isTTY || opts.force)) return SILENT;
  const { SingleBar, Presets } = loadCliProgress();
  const bar = new SingleBar(
    {
      stream: process.stderr,
      // Every field is ours, filled on each update: no cli-progress placeholder can show literally.
      format: `${label} [{bar}] {percentage}% | {spent} elapsed, ETA {remaining} | {detail}`,
      hideCursor: true,
      clearOnComplete: true,
      noTTYOutput: opts.force === true,
      notTTYSchedule: 2000,
    },
    Presets.shades_classic,
  );
  const started = performance.now();
  const fields = (fraction: number, detail: string): Record<string, string> => {
    const elapsed = (performance.now() - started) / 1000;
    return { spent: formatDuration(elapsed), remaining: etaText(elapsed, fraction), detail };
  };
  let shown = 0;
  let detailShown = '';
  bar.start(STEPS, 0, fields(0, ''));
  let stopped = false;
  return {
    update(fraction, detail) {
      if (stopped) return;
      shown = Math.max(shown, Math.round(Math.min(1, Math.max(0, fraction)) * STEPS));
      detailShown = detail ?? detailShown;
      bar.update(shown, fields(shown / STEPS, detailShown));
    },
    stop() {
      if (stopped) return;
      stopped = true;
      bar.stop();
    },
  };
}

/** Runs `work` with a bar, stopping the bar however `work` ends. */
export function withProgress<T>(label: string, opts: { json?: boolean }, work: (progress: Progress) => T): T {
  const bar = progressBar(label, opts);
  try {
    return work(bar);
  } finally {
    bar.stop();
  }
}
