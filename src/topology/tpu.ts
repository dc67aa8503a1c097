/**
 * TPU-style 3-D torus slices `tpu:AxBxC[,twist=on]` (issue 25). Chips are the ranks, each with six
 * ICI links (two per axis). `twist=on` builds the twisted torus of TPU v4 slices whose shape is
 * k×k×2k or k×2k×2k (Jouppi et al., "TPU v4", ISCA 2023, §2): the wrap-around link of an axis of
 * length k also moves k positions along the first axis of length 2k, as in Cámara/Camarero's
 * twisted tori, which lowers the diameter and raises the bisection of the non-cubic slice.
 * Node id = x + A·y + A·B·z; classes "x+", "x-", ... as the plain torus.
 */
import { InputError } from '../util/errors.js';
import { parseDims, Spec } from '../util/spec.js';
import { checkSize, type LinkAttributes, TopologyBuilder } from './builder.js';
import { NodeKind, type Topology } from './graph.js';
import { axisName } from './cartesian.js';
import type { TopologyFamily } from './registry.js';

/** For each axis, the axis its wrap-around twists along (−1: untwisted). */
export function twistAxes(dims: readonly number[]): number[] {
  return dims.map((k) => dims.findIndex((other) => other === 2 * k));
}

export function tpuTorus(dims: readonly number[], twist: boolean, link?: LinkAttributes, spec?: string): Topology {
  if (dims.length !== 3) throw new InputError('tpu.dims', dims.join('x'), 'three axes AxBxC (a 3-D slice)');
  const along = twist ? twistAxes(dims) : [-1, -1, -1];
  if (twist && along.every((a) => a < 0)) throw new InputError('tpu.twist', 'on', 'a shape with one axis twice another (k×k×2k or k×2k×2k), or twist=off');
  const nodes = dims[0] * dims[1] * dims[2];
  checkSize('tpu.dims', nodes, nodes * 6);
  const b = new TopologyBuilder(3, { nodes, channels: nodes * 6 }, link);
  const stride = [1, dims[0], dims[0] * dims[1]];
  const c = [0, 0, 0];
  for (let v = 0; v < nodes; v++) b.addNode(NodeKind.Terminal, [v % dims[0], Math.floor(v / dims[0]) % dims[1], Math.floor(v / stride[2])]);
  for (let d = 0; d < 3; d++) {
    const k = dims[d];
    for (let v = 0; v < nodes; v++) {
      c[0] = v % dims[0];
      c[1] = Math.floor(v / dims[0]) % dims[1];
      c[2] = Math.floor(v / stride[2]);
      if (c[d] + 1 < k) {
        b.addLink(v, v + stride[d], `${axisName(d)}+`, `${axisName(d)}-`);
      } else if (k > 2 || (k === 2 && along[d] >= 0)) {
        // Wrap-around: back to coordinate 0 of axis d, shifted by k along the twist axis.
        const t = along[d];
        let w = v - c[d] * stride[d];
        if (t >= 0) w += (((c[t] + k) % dims[t]) - c[t]) * stride[t];
        b.addLink(v, w, `${axisName(d)}+`, `${axisName(d)}-`);
      }
    }
  }
  return b.build({
    family: 'tpu',
    spec: spec ?? `tpu:${dims.join('x')}${twist ? ',twist=on' : ''}`,
    params: { dims: [...dims], twist, twistAxes: along, bandwidth: b.defaultBandwidth, latency: b.defaultLatency },
    distanceConvention: 'router-hops',
    // Translations along every axis (with the twist carried along) map any chip onto any other.
    symmetry: { reason: 'a (twisted) torus is vertex-transitive', classes: [{ rank: 0, count: nodes }] },
  });
}

/** TPU v4 ICI: 2,400 Gb/s per chip over six links (Google Cloud TPU v4 documentation), read as 50 GB/s per link and direction. */
export const TPU_V4_LINK_BANDWIDTH = 50e9;

export const tpuFamily: TopologyFamily = {
  name: 'tpu',
  usage: 'tpu:AxBxC[,twist=off|on,bw=50GB/s,lat=100ns]',
  description: 'TPU-style 3-D torus slice of chips with six ICI links; twist=on: TPU v4 twisted torus for k×k×2k and k×2k×2k',
  build(spec: Spec, link: LinkAttributes): Topology {
    const dims = parseDims(spec.positional ?? spec.raw('dims'), spec.field('dims'), { min: 2 });
    const twist = spec.bool('twist', false);
    return tpuTorus(dims, twist, { bandwidth: link.bandwidth ?? TPU_V4_LINK_BANDWIDTH, latency: link.latency }, spec.text);
  },
  defaultRouting: 'shortest',
};
