/**
 * Rank mappings (`--mapping`): which compute endpoint each rank runs on. A mapping is a permutation
 * `perm` of the default ranks: new rank r runs on the endpoint that was rank perm[r]
 * (Topology.withRankOrder). Named orders:
 *   identity          the generator's order (dimension 0 fastest, as BookSim numbers nodes)
 *   reverse           rank r on old rank N−1−r
 *   random[:seed=N]   a seeded uniform shuffle (Fisher–Yates with Rng(seed); seed 1 by default)
 *   snake             boustrophedon over the node coordinates: dimension 0 is walked backwards
 *                     whenever the higher coordinates sum to an odd number, and so on recursively,
 *                     so consecutive ranks are always neighbours in a mesh
 * Permutation files are read by the Node adapter (src/node/load-topology.ts) and passed as arrays.
 * An explicit list may name fewer endpoints than the topology has (an MPI hostfile that uses a subset
 * of a platform's hosts): rank r runs on old rank list[r], and the endpoints not listed host no rank.
 * An SMPI hostfile may also list a host several times (applyHostList): its ranks then share it.
 */
import { InputError } from '../util/errors.js';
import { Rng } from '../util/rng.js';
import { Spec } from '../util/spec.js';
import { loopbackOf, type Topology } from './graph.js';
import { selfRouteOf } from './registry.js';

export const NAMED_MAPPINGS = ['identity', 'reverse', 'random', 'snake'] as const;

/** True when `text` names a built-in order rather than a permutation file. */
export function isNamedMapping(text: string): boolean {
  const family = text.trim().split(':')[0].toLowerCase();
  return (NAMED_MAPPINGS as readonly string[]).includes(family);
}

/** Applies a named order ("reverse", "random:seed=7", ...) or an explicit permutation. */
export function applyMapping(t: Topology, mapping: string | ArrayLike<number>, label?: string, field = 'mapping'): Topology {
  if (typeof mapping !== 'string') {
    const perm = checkPermutation(mapping, t.numEndpoints, field, true);
    return t.withRankOrder(perm, label ?? 'permutation');
  }
  const spec = Spec.parse(mapping, field);
  const n = t.numEndpoints;
  let perm: Int32Array;
  switch (spec.family) {
    case 'identity':
      perm = Int32Array.from({ length: n }, (_, r) => r);
      break;
    case 'reverse':
      perm = Int32Array.from({ length: n }, (_, r) => n - 1 - r);
      break;
    case 'random': {
      const seed = spec.int('seed', { min: 0, max: 0xffffffff, default: 1 });
      perm = Int32Array.from({ length: n }, (_, r) => r);
      const rng = new Rng(seed);
      for (let i = n - 1; i > 0; i--) {
        const j = rng.int(i + 1);
        const tmp = perm[i];
        perm[i] = perm[j];
        perm[j] = tmp;
      }
      break;
    }
    case 'snake':
      perm = snakeOrder(t, field);
      break;
    default:
      throw new InputError(field, mapping, `${NAMED_MAPPINGS.join(', ')} (random:seed=N), or a permutation file`);
  }
  if (spec.positional !== undefined) throw new InputError(field, mapping, `${spec.family} without a positional argument`);
  spec.assertAllRead();
  return t.withRankOrder(perm, label ?? spec.text);
}

/**
 * Checks that `perm` lists every rank 0..n−1 exactly once (with `subset`, at least one and at most n
 * distinct ranks); errors name the offending entry.
 */
export function checkPermutation(perm: ArrayLike<number>, n: number, field = 'mapping', subset = false): Int32Array {
  if (subset ? perm.length < 1 || perm.length > n : perm.length !== n) throw new InputError(field, `${perm.length} entries`, subset ? `1 to ${n} distinct endpoints, one per rank` : `exactly ${n} entries, one per rank`);
  const firstAt = new Int32Array(n).fill(-1);
  const out = new Int32Array(perm.length);
  for (let r = 0; r < perm.length; r++) {
    const v = perm[r];
    if (!Number.isInteger(v) || v < 0 || v >= n) throw new InputError(`${field}[${r}]`, v, `a rank 0..${n - 1}`);
    if (firstAt[v] >= 0) throw new InputError(`${field}[${r}]`, v, `each rank 0..${n - 1} exactly once (${v} is already ${field}[${firstAt[v]}])`);
    firstAt[v] = r;
    out[r] = v;
  }
  return out;
}

/**
 * An SMPI hostfile's ranks on their hosts (`hosts[r]`: the endpoint, by its current rank, that rank r
 * runs on), where a host may be listed several times, as smpirun runs several ranks on it. Their
 * messages to each other then take the host's route to itself, which SimGrid needs: without one
 * (a TORUS, FAT_TREE or DRAGONFLY cluster without loopback_bw, a Full zone without a self route)
 * smpirun aborts ("no connecting path between these two hosts"), and so a repeated host without one
 * is refused here. `names[r]` names rank r's host in errors.
 */
export function applyHostList(t: Topology, hosts: ArrayLike<number>, label: string, names: readonly string[], field = 'mapping'): Topology {
  const n = t.numEndpoints;
  if (hosts.length < 1) throw new InputError(field, 'no host', 'at least one host');
  const ranksOn = new Int32Array(n);
  let scratch: Int32Array | undefined;
  for (let r = 0; r < hosts.length; r++) {
    const v = hosts[r];
    if (!Number.isInteger(v) || v < 0 || v >= n) throw new InputError(`${field}[${r}]`, v, `a host 0..${n - 1}`);
    if (++ranksOn[v] === 2 && !hasSelfRoute(t, t.endpoints[v], (scratch ??= new Int32Array(Math.max(16, t.numChannels))))) {
      throw new InputError(`${field}[${r}]`, names[r], `a host with a route to itself for its second rank (smpirun aborts: no connecting path from a host to itself; give the cluster loopback_bw and loopback_lat, or the zone a route from the host to itself)`);
    }
  }
  return t.withRankOrder(Int32Array.from(hosts), label);
}

/** Whether a message from host `node` to itself has a route: a loopback, its family's self route, or a declared one. */
function hasSelfRoute(t: Topology, node: number, channels: Int32Array): boolean {
  if (loopbackOf(t)) return true;
  return (selfRouteOf(t)?.(t, node, channels) ?? 0) > 0;
}

function snakeOrder(t: Topology, field: string): Int32Array {
  if (!t.coords || t.coordDims === 0) throw new InputError(field, 'snake', 'a topology with node coordinates (mesh, torus, ring, ...)');
  const n = t.numEndpoints;
  const dims = t.coordDims;
  const radix = new Array<number>(dims).fill(1);
  for (let r = 0; r < n; r++) {
    for (let d = 0; d < dims; d++) radix[d] = Math.max(radix[d], t.coord(t.endpoints[r], d) + 1);
  }
  const keys = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    const v = t.endpoints[r];
    let key = 0;
    let higherSum = 0;
    for (let d = dims - 1; d >= 0; d--) {
      const x = t.coord(v, d);
      key = key * radix[d] + (higherSum % 2 === 1 ? radix[d] - 1 - x : x);
      higherSum += x;
    }
    keys[r] = key;
  }
  return Int32Array.from({ length: n }, (_, r) => r).sort((a, b) => keys[a] - keys[b] || a - b);
}
