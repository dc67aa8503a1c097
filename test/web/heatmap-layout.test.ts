/**
 * The Studio's own computations (web/src): heatmap frames integrate the flow engine's rate samples
 * exactly, and layouts place each family as docs/ui.md says.
 */
import { describe, expect, it } from 'vitest';
import { HeatmapRecorder, totalUtilisation } from '../../web/src/heatmap-recorder.js';
import { layoutOf } from '../../web/src/layout.js';
import { buildTopology } from '../../src/topology/registry.js';
import { buildSchedule } from '../../src/collectives/index.js';
import { simulate } from '../../src/sim/simulate.js';

describe('HeatmapRecorder', () => {
  it('frames are time-weighted means of the samples (hand-computed)', () => {
    // One channel of 10 B/s: rate 10 on [0, 1), 5 on [1, 3), 0 on [3, 4]; two frames of 2 s.
    const r = new HeatmapRecorder(Float64Array.of(10));
    r.channelRates(0, Float64Array.of(10));
    r.channelRates(1, Float64Array.of(5));
    r.channelRates(3, Float64Array.of(0));
    const h = r.frames(4, 2);
    expect(h.frameSeconds).toBe(2);
    expect(Array.from(h.utilisation)).toEqual([0.75, 0.25]);
  });

  it('merging samples under the memory cap keeps each frame integral', () => {
    const exact = new HeatmapRecorder(Float64Array.of(1));
    const capped = new HeatmapRecorder(Float64Array.of(1), 4);
    for (let i = 0; i < 16; i++) {
      const rate = Float64Array.of((i * 7) % 5 / 4);
      exact.channelRates(i, rate);
      capped.channelRates(i, rate);
    }
    const a = exact.frames(16, 1).utilisation[0];
    const b = capped.frames(16, 1).utilisation[0];
    expect(b).toBeCloseTo(a, 6);
  });

  it('the mean over all frames of a real run equals bytes / (bandwidth × makespan) per channel', () => {
    const t = buildTopology('torus:4x4');
    const recorder = new HeatmapRecorder(t.chBandwidth);
    const result = simulate({ topology: t, schedule: buildSchedule({ topology: t, collective: 'alltoall', algorithm: 'pairwise', size: 4096 }), trace: recorder });
    const frames = 40;
    const h = recorder.frames(result.makespan_s, frames);
    const total = totalUtilisation(result.channels.bytes, t.chBandwidth, result.makespan_s);
    for (let c = 0; c < t.numChannels; c++) {
      let mean = 0;
      for (let f = 0; f < frames; f++) mean += h.utilisation[f * t.numChannels + c] / frames;
      expect(mean).toBeCloseTo(total.utilisation[c], 4);
    }
  });
});

describe('layoutOf', () => {
  it('tori on their grid, rings on a circle, fat trees in layers with terminals at the bottom', () => {
    const torus = layoutOf(buildTopology('torus:4x4'));
    expect(torus.kind).toBe('grid');
    expect(Array.from(torus.xy.subarray(0, 4))).toEqual([0, 0, 1 / 3, 0].map(Math.fround));
    expect(layoutOf(buildTopology('ring:8')).kind).toBe('circle');
    const ft = buildTopology('fattree:k=4,levels=3');
    const layers = layoutOf(ft);
    expect(layers.kind).toBe('layers');
    let bottom = 0;
    for (let v = 0; v < ft.numNodes; v++) bottom = Math.max(bottom, layers.xy[2 * v + 1]);
    for (let v = 0; v < ft.numNodes; v++) expect(layers.xy[2 * v + 1] === bottom).toBe(ft.nodeKind[v] === 0);
    expect(layoutOf(buildTopology('hypercube:4')).kind).toBe('bits');
  });
});
