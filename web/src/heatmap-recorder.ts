/**
 * Turns the flow engine's per-channel rate samples (one per rate update) into a fixed number of
 * animation frames: the time-weighted mean utilisation of each channel over each frame. Samples are
 * kept until `maxValues` floats; past that, neighbouring samples are merged time-weighted, so the
 * memory stays bounded on long runs and every frame still integrates the whole run.
 */
import type { FlowTraceRecorder } from '../../src/sim/flow/engine.js';
import type { Heatmap } from './protocol.js';

export class HeatmapRecorder implements FlowTraceRecorder {
  private times: number[] = [];
  private samples: Float32Array[] = [];

  constructor(
    private readonly bandwidth: Float64Array,
    private readonly maxValues = 1 << 24,
  ) {}

  rates(): void {}

  channelRates(t: number, perChannel: Float64Array): void {
    const m = this.bandwidth.length;
    const u = new Float32Array(m);
    for (let c = 0; c < m; c++) u[c] = this.bandwidth[c] > 0 ? perChannel[c] / this.bandwidth[c] : 0;
    const last = this.times.length - 1;
    if (last >= 0 && this.times[last] === t) this.samples[last] = u;
    else {
      this.times.push(t);
      this.samples.push(u);
    }
    if (this.samples.length * m > this.maxValues) this.mergePairs();
  }

  /** Sample i holds from times[i] to times[i + 1]; pairs become one sample with the weighted mean. */
  private mergePairs(): void {
    const times: number[] = [];
    const samples: Float32Array[] = [];
    const n = this.times.length;
    let i = 0;
    for (; i + 2 < n; i += 2) {
      const d0 = this.times[i + 1] - this.times[i];
      const d1 = this.times[i + 2] - this.times[i + 1];
      const a = this.samples[i];
      const b = this.samples[i + 1];
      const total = d0 + d1 || 1;
      for (let c = 0; c < a.length; c++) a[c] = (a[c] * d0 + b[c] * d1) / total;
      times.push(this.times[i]);
      samples.push(a);
    }
    for (; i < n; i++) {
      times.push(this.times[i]);
      samples.push(this.samples[i]);
    }
    this.times = times;
    this.samples = samples;
  }

  /** `frames` equal slices of [0, makespan]; the last sample lasts until the makespan. */
  frames(makespan: number, frames: number): Heatmap {
    const m = this.bandwidth.length;
    const utilisation = new Float32Array(frames * m);
    const dt = makespan / frames;
    if (!(dt > 0)) return { frames, frameSeconds: 0, utilisation };
    for (let i = 0; i < this.times.length; i++) {
      const t0 = this.times[i];
      const t1 = i + 1 < this.times.length ? this.times[i + 1] : makespan;
      if (!(t1 > t0)) continue;
      const u = this.samples[i];
      for (let f = Math.floor(t0 / dt); f < frames && f * dt < t1; f++) {
        const overlap = Math.min(t1, (f + 1) * dt) - Math.max(t0, f * dt);
        if (overlap <= 0) continue;
        const w = overlap / dt;
        const row = f * m;
        for (let c = 0; c < m; c++) utilisation[row + c] += u[c] * w;
      }
    }
    return { frames, frameSeconds: dt, utilisation };
  }
}

/** One frame from total bytes per channel (the packet engine records no time series). */
export function totalUtilisation(bytes: readonly number[] | undefined, bandwidth: Float64Array, makespan: number): Heatmap {
  const m = bandwidth.length;
  const utilisation = new Float32Array(m);
  if (bytes && makespan > 0) for (let c = 0; c < m; c++) utilisation[c] = bytes[c] / (bandwidth[c] * makespan);
  return { frames: 1, frameSeconds: makespan, utilisation };
}
