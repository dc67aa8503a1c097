/**
 * The Studio's own computations (web/src): heatmap frames integrate the flow engine's rate samples
 * exactly, and layouts place each family as docs/ui.md says.
 */
import { describe, expect, it } from 'vitest';
import { HeatmapRecorder, totalUtilisation } from '../../web/src/heatmap-recorder.js';
import { structuredLayout } from '../../web/src/layout.js';
import { FORCE_LAYOUT_SEED, forceLayout } from '../../web/src/force-layout.js';
import type { Topology } from '../../src/topology/graph.js';
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

describe('structuredLayout', () => {
  it('tori on their grid, rings on a circle, fat trees in layers with terminals at the bottom', () => {
    const torus = structuredLayout(buildTopology('torus:4x4'))!;
    expect(torus.kind).toBe('grid');
    expect(Array.from(torus.xy.subarray(0, 4))).toEqual([0, 0, 1 / 3, 0].map(Math.fround));
    expect(structuredLayout(buildTopology('ring:8'))?.kind).toBe('circle');
    const ft = buildTopology('fattree:k=4,levels=3');
    const layers = structuredLayout(ft)!;
    expect(layers.kind).toBe('layers');
    let bottom = 0;
    for (let v = 0; v < ft.numNodes; v++) bottom = Math.max(bottom, layers.xy[2 * v + 1]);
    for (let v = 0; v < ft.numNodes; v++) expect(layers.xy[2 * v + 1] === bottom).toBe(ft.nodeKind[v] === 0);
    expect(structuredLayout(buildTopology('hypercube:4'))?.kind).toBe('bits');
  });

  it('accelerator fabrics: accelerators in a row per node, scale-up switches below, rail switches above', () => {
    const t = buildTopology('hgx-h100:nodes=2');
    const l = structuredLayout(t)!;
    expect(l.kind).toBe('fabric');
    const y = (v: number): number => l.xy[2 * v + 1];
    const x = (v: number): number => l.xy[2 * v];
    // GPUs 0..15, the two NVSwitch nodes 16 and 17, the eight rail switches 18..25.
    for (let g = 1; g < 16; g++) expect(y(g)).toBe(y(0));
    expect(y(16)).toBeGreaterThan(y(0));
    expect(y(18)).toBeLessThan(y(0));
    expect(x(8)).toBeGreaterThan(x(7)); // node 1 to the right of node 0
    for (let v = 0; v < t.numNodes; v++) expect(Number.isFinite(x(v)) && Number.isFinite(y(v))).toBe(true);
  });

  it('leaves the families with no grid or tree (Jellyfish, Slim Fly, PolarFly, dragonfly, graph files) to the force layout', () => {
    for (const spec of ['jellyfish:routers=16,degree=4,seed=1', 'slimfly:q=5', 'polarfly:q=3', 'dragonfly:h=2', 'hyperx:4x4']) {
      expect(structuredLayout(buildTopology(spec)), spec).toBeUndefined();
    }
  });
});

/** Mean drawn length of the links, over the mean distance between all pairs of nodes. */
function linkLengthRatio(t: Topology, xy: Float32Array): number {
  const dist = (a: number, b: number): number => Math.hypot(xy[2 * a] - xy[2 * b], xy[2 * a + 1] - xy[2 * b + 1]);
  let links = 0;
  for (let c = 0; c < t.numChannels; c++) links += dist(t.chSrc[c], t.chDst[c]);
  let pairs = 0;
  for (let a = 0; a < t.numNodes; a++) for (let b = 0; b < t.numNodes; b++) pairs += dist(a, b);
  return links / t.numChannels / (pairs / (t.numNodes * t.numNodes));
}

describe('forceLayout', () => {
  it('gives the same picture for the same spec, byte for byte, and a different one for another seed', () => {
    const spec = 'jellyfish:routers=24,degree=4,seed=2';
    const a = forceLayout(buildTopology(spec));
    const b = forceLayout(buildTopology(spec));
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
    const other = forceLayout(buildTopology(spec), FORCE_LAYOUT_SEED + 1);
    expect(Buffer.from(a.buffer).equals(Buffer.from(other.buffer))).toBe(false);
  });

  it('pulls linked nodes together: links are far shorter than the mean node distance (a random placement gives a ratio near 1)', () => {
    for (const spec of ['jellyfish:routers=24,degree=4,seed=2', 'slimfly:q=5', 'dragonfly:h=2']) {
      const t = buildTopology(spec);
      const xy = forceLayout(t);
      for (const v of xy) expect(v >= 0 && v <= 1).toBe(true);
      expect(linkLengthRatio(t, xy), spec).toBeLessThan(0.6);
    }
  });
});
