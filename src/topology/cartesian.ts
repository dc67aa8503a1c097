/**
 * Mesh and torus of any number of dimensions and mixed radices (k-ary n-cubes and their
 * generalisations). Node id = x0 + X0·x1 + X0·X1·x2 ... (dimension 0 fastest, as BookSim numbers nodes).
 * Channel classes: "d0+", "d0-", "d1+", ... (also known as x+, x-, y+, ...).
 */
import { InputError } from '../util/errors.js';
import { parseDims, Spec } from '../util/spec.js';
import { checkSize, LinkAttributes, TopologyBuilder } from './builder.js';
import { NodeKind, Topology } from './graph.js';
import type { TopologyGrid, TopologyFamily } from './registry.js';

export const AXIS_NAMES = ['x', 'y', 'z', 'w', 'v', 'u'];

export function axisName(dim: number): string {
  return dim < AXIS_NAMES.length ? AXIS_NAMES[dim] : `d${dim}`;
}

export interface CartesianOptions {
  dims: readonly number[];
  wrap: boolean;
  link?: LinkAttributes;
  /** Spec text recorded in the topology; derived from the options when absent. */
  spec?: string;
}

export function cartesian(opts: CartesianOptions): Topology {
  const { dims, wrap } = opts;
  const family = wrap ? 'torus' : 'mesh';
  if (dims.length === 0) throw new InputError(family, dims, 'at least one dimension');
  for (const k of dims) {
    if (!Number.isInteger(k) || k < 1) throw new InputError(`${family}.dims`, dims.join('x'), 'positive integer radices');
  }
  const nodes = dims.reduce((a, b) => a * b, 1);
  checkSize(`${family}.dims`, nodes, nodes * dims.length * 2);
  const b = new TopologyBuilder(dims.length, { nodes, channels: nodes * dims.length * 2 }, opts.link);
  const coord = new Array<number>(dims.length).fill(0);
  for (let v = 0; v < nodes; v++) {
    let rest = v;
    for (let d = 0; d < dims.length; d++) {
      coord[d] = rest % dims[d];
      rest = Math.floor(rest / dims[d]);
    }
    b.addNode(NodeKind.Terminal, coord);
  }
  let stride = 1;
  for (let d = 0; d < dims.length; d++) {
    const k = dims[d];
    const plus = `${axisName(d)}+`;
    const minus = `${axisName(d)}-`;
    for (let v = 0; v < nodes; v++) {
      const x = Math.floor(v / stride) % k;
      if (x + 1 < k) {
        b.addChannel(v, v + stride, plus);
        b.addChannel(v + stride, v, minus);
      } else if (wrap && k > 2) {
        // The wrap-around link; k = 2 has none of its own (the one link already joins both nodes).
        b.addChannel(v, v - x * stride, plus);
        b.addChannel(v - x * stride, v, minus);
      }
    }
    stride *= k;
  }
  const spec = opts.spec ?? `${family}:${dims.join('x')}`;
  return b.build({
    family,
    spec,
    params: { dims: [...dims], wrap, bandwidth: b.defaultBandwidth, latency: b.defaultLatency },
    distanceConvention: 'router-hops',
    symmetry: wrap ? { reason: 'torus is vertex-transitive', classes: [{ rank: 0, count: nodes }] } : undefined,
  });
}

export function torus(dims: readonly number[], link?: LinkAttributes): Topology {
  return cartesian({ dims, wrap: true, link });
}

export function mesh(dims: readonly number[], link?: LinkAttributes): Topology {
  return cartesian({ dims, wrap: false, link });
}

/**
 * BookSim's k-ary n-cube ports (kncube.cpp _BuildNet): per dimension d, input 2d from the +d
 * neighbour and 2d + 1 from the −d one, output 2d to the +d neighbour and 2d + 1 to the −d one.
 * Channel classes are d+ / d− in that order (class 2d + 1 is −d), so an output's port is its class
 * and an input's is its class with the direction flipped (a −d channel arrives from the +d side).
 */
function kncubePorts(t: Topology): { inPort: Int32Array; outPort: Int32Array } {
  const outPort = Int32Array.from(t.chClass);
  const inPort = outPort.map((c) => c ^ 1);
  return { inPort, outPort };
}

function cartesianFamily(wrap: boolean): TopologyFamily {
  const name = wrap ? 'torus' : 'mesh';
  return {
    name,
    usage: `${name}:AxBx...[,bw=25Gbps,lat=100ns]`,
    description: wrap
      ? 'k-ary n-cube with wrap-around links, any number of dimensions and mixed radices'
      : 'n-dimensional mesh, any number of dimensions and mixed radices',
    build(spec: Spec, link: LinkAttributes): Topology {
      const dims = parseDims(spec.positional ?? spec.raw('dims'), spec.field('dims'));
      return cartesian({ dims, wrap, link, spec: spec.text });
    },
    defaultRouting: 'dor',
    grid(t: Topology): TopologyGrid | undefined {
      const dims = t.params.dims;
      return Array.isArray(dims) ? { dims: dims as number[], wrap, label: `${name} ${dims.join('x')}` } : undefined;
    },
    // BookSim's use_noc_latency: 2 cycles on a torus (its wrap links are longer), 1 on a mesh.
    booksimChannelLatency: wrap ? 2 : 1,
    booksimPorts: kncubePorts,
  };
}

export const torusFamily = cartesianFamily(true);
export const meshFamily = cartesianFamily(false);
