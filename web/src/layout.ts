/**
 * Node positions for drawing a topology, chosen by what the family is: rings and full meshes on a
 * circle, grids (mesh, torus, DCE/MDCE coordinates) by their coordinates with higher dimensions
 * tiled side by side, hypercubes by address bits, and indirect networks (fat tree, omega, two-level,
 * ...) in layers by switch distance from the terminals. Families with no such structure (Jellyfish,
 * Slim Fly, PolarFly, dragonflies, HyperX, opened graph files) get no structured layout here: the
 * worker draws them with a force layout (force-layout.ts), loaded only for them. Positions are in
 * [0, 1] × [0, 1].
 */
import { NodeKind, type Topology } from '../../src/topology/graph.js';

export type LayoutKind = 'circle' | 'grid' | 'bits' | 'layers' | 'fabric' | 'force';

export interface Layout {
  readonly kind: LayoutKind;
  /** x, y per node. */
  readonly xy: Float32Array;
}

const CIRCLE_FAMILIES = new Set(['ring', 'uring', 'fullmesh']);
/** Router networks whose wiring has no grid or tree to draw (HyperX's and flatfly's routers do have coordinates, but their all-to-all rows would cross on a grid). */
const FORCE_FAMILIES = new Set(['jellyfish', 'slimfly', 'polarfly', 'dragonfly', 'dragonflyplus', 'hyperx', 'flatfly', 'file']);

/** The family's structured layout, or undefined when the network is to be drawn by forces. */
export function structuredLayout(t: Topology): Layout | undefined {
  if (FORCE_FAMILIES.has(t.family)) return undefined;
  const hasSwitches = t.nodeKind.some((k) => k === NodeKind.Switch);
  if (CIRCLE_FAMILIES.has(t.family)) return { kind: 'circle', xy: normalise(circle(t.numNodes)) };
  if (typeof t.params.gpusPerNode === 'number' && t.coords && t.coordDims === 2) return { kind: 'fabric', xy: normalise(fabric(t)) };
  if (t.family === 'hypercube') return { kind: 'bits', xy: normalise(bits(t.numNodes)) };
  if (t.coords && t.coordDims > 0 && !hasSwitches) return { kind: 'grid', xy: normalise(grid(t.coords, t.coordDims, t.numNodes)) };
  if (hasSwitches) return { kind: 'layers', xy: normalise(layers(t)) };
  return undefined;
}

function circle(n: number): Float32Array {
  const xy = new Float32Array(2 * n);
  for (let v = 0; v < n; v++) {
    const a = (2 * Math.PI * v) / n - Math.PI / 2;
    xy[2 * v] = Math.cos(a);
    xy[2 * v + 1] = Math.sin(a);
  }
  return xy;
}

/**
 * Accelerator fabrics (topology/fabric.ts), from their coordinates: each node's accelerators in a
 * row (a full mesh on a small circle) with its scale-up switches under them, nodes side by side,
 * and the rail switches above, rail by rail (planes stacked), so scale-up domains and rails read at
 * a glance. Coordinates: accelerator (node, g); scale-up switch (node, −1 − k); rail leaf or spine
 * (−1 − e, plane).
 */
function fabric(t: Topology): Float32Array {
  const p = t.params as { gpusPerNode: number; nodes: number; scaleUp?: string };
  const G = p.gpusPerNode;
  const width = G + 1;
  const xy = new Float32Array(2 * t.numNodes);
  let rails = 1;
  for (let v = 0; v < t.numNodes; v++) if (t.coords![2 * v] < 0) rails = Math.max(rails, -t.coords![2 * v]);
  const span = p.nodes * width;
  const mesh = p.scaleUp === 'mesh';
  for (let v = 0; v < t.numNodes; v++) {
    const a = t.coords![2 * v];
    const b = t.coords![2 * v + 1];
    if (a >= 0 && b >= 0) {
      // An accelerator: in a row, or on a circle for a full mesh (its links would overlap in a row).
      const angle = (2 * Math.PI * b) / G;
      xy[2 * v] = a * width + (mesh ? (G - 1) / 2 + ((G - 1) / 2) * Math.cos(angle) : b);
      xy[2 * v + 1] = mesh ? 4 + 1.5 * Math.sin(angle) : 4;
    } else if (a >= 0) {
      const k = -1 - b;
      xy[2 * v] = a * width + (G - 1) / 2 + (k % 4) * 0.3;
      xy[2 * v + 1] = 6 + Math.floor(k / 4) * 0.3;
    } else {
      const e = -1 - a;
      xy[2 * v] = ((e + 0.5) / rails) * span;
      xy[2 * v + 1] = 1 - b * 0.7;
    }
  }
  return xy;
}

/** Even dimensions go across, odd ones down; each further pair tiles the plane with a gap of one. */
function grid(coords: Int32Array, dims: number, n: number): Float32Array {
  const extent = new Int32Array(dims);
  for (let v = 0; v < n; v++) for (let d = 0; d < dims; d++) extent[d] = Math.max(extent[d], coords[v * dims + d] + 1);
  const xy = new Float32Array(2 * n);
  for (let v = 0; v < n; v++) {
    let x = 0;
    let y = 0;
    let sx = 1;
    let sy = 1;
    for (let d = 0; d < dims; d++) {
      const c = coords[v * dims + d];
      if (d % 2 === 0) {
        x += c * sx;
        sx *= extent[d] + (d === 0 ? 0.6 : 0.3);
      } else {
        y += c * sy;
        sy *= extent[d] + (d === 1 ? 0.6 : 0.3);
      }
    }
    xy[2 * v] = x;
    xy[2 * v + 1] = y;
  }
  return xy;
}

/** Node id bits alternate between x and y: a d-cube drawn as a 2^(d/2) grid of its sub-cubes. */
function bits(n: number): Float32Array {
  const xy = new Float32Array(2 * n);
  for (let v = 0; v < n; v++) {
    let x = 0;
    let y = 0;
    for (let b = 0, w = v; w > 0; b++, w >>= 1) {
      if ((w & 1) === 0) continue;
      const weight = 2 ** (b >> 1) * (1 + 0.15 * (b >> 1));
      if (b % 2 === 0) x += weight;
      else y += weight;
    }
    xy[2 * v] = x;
    xy[2 * v + 1] = y;
  }
  return xy;
}

/** Terminals on the bottom row, each switch one row above its nearest terminal distance. */
function layers(t: Topology): Float32Array {
  const n = t.numNodes;
  const level = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  for (let v = 0; v < n; v++) {
    if (t.nodeKind[v] === NodeKind.Terminal) {
      level[v] = 0;
      queue[tail++] = v;
    }
  }
  while (head < tail) {
    const v = queue[head++];
    for (let i = t.outStart[v]; i < t.outStart[v + 1]; i++) {
      const w = t.chDst[t.outChannels[i]];
      if (level[w] < 0) {
        level[w] = level[v] + 1;
        queue[tail++] = w;
      }
    }
  }
  let top = 0;
  for (let v = 0; v < n; v++) top = Math.max(top, level[v]);
  const count = new Int32Array(top + 2);
  for (let v = 0; v < n; v++) count[level[v] < 0 ? top + 1 : level[v]]++;
  const seen = new Int32Array(top + 2);
  const xy = new Float32Array(2 * n);
  for (let v = 0; v < n; v++) {
    const l = level[v] < 0 ? top + 1 : level[v];
    xy[2 * v] = (seen[l]++ + 0.5) / count[l];
    xy[2 * v + 1] = (top + 1 - l) / (top + 1);
  }
  return xy;
}

/** Scales into [0, 1] keeping the aspect ratio, centred. */
export function normalise(xy: Float32Array): Float32Array {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let i = 0; i < xy.length; i += 2) {
    x0 = Math.min(x0, xy[i]);
    x1 = Math.max(x1, xy[i]);
    y0 = Math.min(y0, xy[i + 1]);
    y1 = Math.max(y1, xy[i + 1]);
  }
  const span = Math.max(x1 - x0, y1 - y0) || 1;
  const ox = (span - (x1 - x0)) / 2;
  const oy = (span - (y1 - y0)) / 2;
  for (let i = 0; i < xy.length; i += 2) {
    xy[i] = (xy[i] - x0 + ox) / span;
    xy[i + 1] = (xy[i + 1] - y0 + oy) / span;
  }
  return xy;
}
