/** A view's one running request: progress, the one-line error, cancel. */
import { CancelledError, run, type Job } from './client.js';
import type { Request } from './protocol.js';

export class JobState<T> {
  running = $state(false);
  fraction = $state(0);
  note = $state('');
  error = $state('');
  value = $state.raw<T | undefined>();
  private job: Job<T> | undefined;

  async start(request: Request): Promise<T | undefined> {
    this.job?.cancel();
    this.running = true;
    this.fraction = 0;
    this.note = '';
    this.error = '';
    const job = run<T>(request, (f, note) => {
      this.fraction = f;
      this.note = note ?? '';
    });
    this.job = job;
    try {
      const value = await job.promise;
      if (this.job === job) this.value = value;
      return value;
    } catch (err) {
      // The last run's results go with it: they do not answer the form now shown (issue 28 item 16).
      if (this.job === job) {
        this.value = undefined;
        this.error = err instanceof CancelledError ? 'cancelled' : (err as Error).message;
      }
      return undefined;
    } finally {
      if (this.job === job) this.running = false;
    }
  }

  cancel(): void {
    this.job?.cancel();
  }
}
