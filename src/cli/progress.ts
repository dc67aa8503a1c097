/**
 * Progress bars for commands that can run for more than a couple of seconds: on stderr, only when
 * stderr is a terminal, and never for --json (machine output stays the only thing a caller reads).
 * The core reports fractions through callbacks; only this module knows about terminals.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  /** Fraction done in [0, 1]; a fraction below one already shown is ignored (a bar never goes back). */
  update(fraction: number, detail?: string): void;
  stop(): void;
}

/** Steps of the bar: fine enough for a smooth ETA, coarse enough to redraw rarely. */
const STEPS = 1000;

const SILENT: Progress = { update: () => {}, stop: () => {} };

export function progressBar(label: string, opts: { json?: boolean } = {}): Progress {
  if (opts.json || !process.stderr.isTTY) return SILENT;
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: `${label} [{bar}] {percentage}% | {duration_formatted} elapsed, ETA {eta_formatted} | {detail}`,
      etaBuffer: 50,
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(STEPS, 0, { detail: '' });
  let shown = 0;
  let stopped = false;
  return {
    update(fraction, detail) {
      if (stopped) return;
      shown = Math.max(shown, Math.round(Math.min(1, Math.max(0, fraction)) * STEPS));
      bar.update(shown, detail === undefined ? undefined : { detail });
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
