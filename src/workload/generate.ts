/**
 * A workload generator for the common parallelisms: one training step of a stack of transformer
 * layers under tensor (TP), pipeline (PP) and data (DP) parallelism, with optional expert
 * parallelism (EP: the MLP becomes experts reached by all-to-all), written as Chakra nodes so that
 * a generated workload takes exactly the path a user's trace takes (encode, read, check, lower).
 *
 * The step (Megatron-LM's layout, GPipe schedule):
 * - ranks: rank = (dp · PP + stage) · TP + tp, so a TP group is TP consecutive ranks (one server);
 * - per layer forward: attention GEMMs → TP allreduce of the activations → MLP GEMMs (or, with
 *   EP, all-to-all dispatch → expert GEMMs → all-to-all combine) → TP allreduce; backward: the
 *   same in reverse at twice the FLOPs, then the layer's DP gradient allreduce, which overlaps the
 *   backward of the layers below it (nothing waits for it but the optimizer);
 * - between stages: the activations go by COMM_SEND/RECV, forward then backward, per microbatch;
 * - process groups are named in a PyTorch-style metadata node ("tp<i>", "dp<i>", "ep<i>"
 *   as numbers, since ASTRA-sim reads pg_name as an integer).
 *
 * FLOPs and bytes (T = microbatch × sequence tokens, h = hidden, e = bytes per element):
 * attention 8Th² + 4T·seq·h, MLP 16Th² (both ÷ TP); weights 4h²e (attention) and 8h²e (MLP) ÷ TP;
 * activations per TP allreduce T·h·e; per-layer gradients 12h²e ÷ TP. Compute nodes carry num_ops
 * and tensor_size (weights + activations read), so their time is the device roofline.
 */
import { InputError, LimitError, requireRecord } from '../util/errors.js';
import { encodeChakraRank, type ChakraNodeInit } from './chakra/write.js';
import { decodeChakraRank } from './chakra/read.js';
import { assembleTrace, type ChakraTrace } from './chakra/trace.js';

export interface TransformerOptions {
  readonly tp: number;
  readonly pp?: number;
  readonly dp: number;
  readonly layers: number;
  /** Expert-parallel group size (within DP), 0 or 1 for none. */
  readonly ep?: number;
  readonly hidden?: number;
  readonly sequence?: number;
  readonly microbatch?: number;
  readonly microbatches?: number;
  readonly bytesPerElement?: number;
}

export interface GeneratedWorkload {
  /** Per rank, its nodes (first a metadata node naming the process groups). */
  readonly ranks: ChakraNodeInit[][];
  /** Process groups by pg_name. */
  readonly groups: ReadonlyMap<string, readonly number[]>;
  /** Resolved parameters, for a record. */
  readonly params: Readonly<Record<string, number>>;
}

/**
 * The generator's defaults, in one place: `workload generate`'s options, a request's `generate`
 * (filled in when the request is built, so two spellings of one step are one request and one sweep
 * point) and the generator itself.
 */
export const TRANSFORMER_DEFAULTS: Readonly<Required<TransformerOptions>> = {
  tp: 8, pp: 1, dp: 1, ep: 1, layers: 4, hidden: 8192, sequence: 2048, microbatch: 1, microbatches: 1, bytesPerElement: 2,
};

/** Every generator parameter, the given ones kept and the rest at their defaults. */
export function withTransformerDefaults(o: Partial<TransformerOptions>): Required<TransformerOptions> {
  return { ...TRANSFORMER_DEFAULTS, ...o };
}

/** Refused beyond this many ranks (a generated trace is held in memory). */
export const GENERATE_MAX_RANKS = 65536;
/**
 * Refused beyond this many trace nodes over all ranks, counted before any is made: each is an
 * object held in memory (1.2 M nodes took 0.8 GB and 17 s: tp=8, pp=4, dp=16, 96 layers, 8 microbatches).
 */
export const GENERATE_MAX_NODES = 1 << 22;

function positiveInt(field: string, v: number | undefined, fallback: number, min = 1): number {
  const x = v ?? fallback;
  if (!(Number.isInteger(x) && x >= min)) throw new InputError(field, x, `an integer >= ${min}`);
  return x;
}

export function generateTransformer(o: TransformerOptions): GeneratedWorkload {
  requireRecord(o, 'generate', 'an options object ({ tp, pp, dp, ... }; {} for the defaults)');
  const d = TRANSFORMER_DEFAULTS;
  const tp = positiveInt('tp', o.tp, d.tp);
  const pp = positiveInt('pp', o.pp, d.pp);
  const dp = positiveInt('dp', o.dp, d.dp);
  const layers = positiveInt('layers', o.layers, d.layers);
  const ep = positiveInt('ep', o.ep, d.ep, 0) || 1;
  const h = positiveInt('hidden', o.hidden, d.hidden);
  const seq = positiveInt('sequence', o.sequence, d.sequence);
  const mb = positiveInt('microbatch', o.microbatch, d.microbatch);
  const m = positiveInt('microbatches', o.microbatches, d.microbatches);
  const e = positiveInt('bytes-per-element', o.bytesPerElement, d.bytesPerElement);
  const R = tp * pp * dp;
  if (R > GENERATE_MAX_RANKS) throw new LimitError('ranks', `tp × pp × dp = ${R}`, `${GENERATE_MAX_RANKS} ranks`);
  if (layers % pp !== 0) throw new InputError('layers', layers, `a multiple of pp (${pp}): every stage holds the same number of layers`);
  if (dp % ep !== 0) throw new InputError('ep', ep, `a divisor of dp (${dp}): expert groups lie within the data-parallel dimension`);
  // At most, per rank: metadata, optimizer, two sends and two receives per microbatch (a middle
  // pipeline stage), per layer and microbatch forward and backward 4 nodes (6 with experts), and a
  // gradient allreduce per layer.
  const perRank = 2 + 4 * m + 2 * m * (layers / pp) * (ep > 1 ? 6 : 4) + layers / pp;
  // Named by the factor that outgrows the other (both multiply the node count).
  if (R * perRank > GENERATE_MAX_NODES) throw new LimitError(m > layers ? 'microbatches' : 'layers', `${layers} layers × ${m} microbatches on ${R} ranks: about ${Math.round(R * perRank)} trace nodes`, `${GENERATE_MAX_NODES} trace nodes (2^22; a generated trace is held in memory)`);
  const rankOf = (d: number, s: number, t: number): number => (d * pp + s) * tp + t;

  // Process groups, numbered as ASTRA-sim wants (integers), named in the metadata node.
  const groups = new Map<string, number[]>();
  const tpGroup = new Map<number, string>();
  const dpGroup = new Map<number, string>();
  const epGroup = new Map<number, string>();
  let next = 1;
  for (let d = 0; d < dp; d++) {
    for (let s = 0; s < pp; s++) {
      const name = String(next++);
      const ranks = Array.from({ length: tp }, (_, t) => rankOf(d, s, t));
      groups.set(name, ranks);
      for (const r of ranks) tpGroup.set(r, name);
    }
  }
  for (let s = 0; s < pp; s++) {
    for (let t = 0; t < tp; t++) {
      const name = String(next++);
      const ranks = Array.from({ length: dp }, (_, d) => rankOf(d, s, t));
      groups.set(name, ranks);
      for (const r of ranks) dpGroup.set(r, name);
      if (ep > 1) {
        for (let g = 0; g < dp / ep; g++) {
          const en = String(next++);
          const members = ranks.slice(g * ep, (g + 1) * ep);
          groups.set(en, members);
          for (const r of members) epGroup.set(r, en);
        }
      }
    }
  }
  const metadata = `['${JSON.stringify([...groups].map(([pg_name, ranks]) => ({ pg_name, ranks })))}']`;

  const T = mb * seq;
  const attnFlops = (8 * T * h * h + 4 * T * seq * h) / tp;
  const mlpFlops = (16 * T * h * h) / tp;
  const act = T * h * e;
  const attnBytes = (4 * h * h * e) / tp + act;
  const mlpBytes = (8 * h * h * e) / tp + act;
  const gradBytes = Math.round((12 * h * h * e) / tp);
  const layersPerStage = layers / pp;
  // The largest count a node carries (a backward MLP's FLOPs, twice the forward's), as an int64
  // field of the trace: exact in a number up to 2^53, and far beyond any model's size.
  const largest = Math.max(2 * attnFlops, 2 * mlpFlops, attnBytes, mlpBytes, gradBytes);
  if (!(largest <= Number.MAX_SAFE_INTEGER)) {
    throw new LimitError('hidden', h, `2^53 FLOPs or bytes in one trace node (${largest.toExponential(2)} here, with sequence ${seq} and microbatch ${mb}; the trace's int64 counts, exact as numbers)`);
  }

  const ranks: ChakraNodeInit[][] = [];
  for (let r = 0; r < R; r++) {
    const t = r % tp;
    const s = Math.floor(r / tp) % pp;
    const d = Math.floor(r / (tp * pp));
    const nodes: ChakraNodeInit[] = [{ id: 0, name: 'process groups', kind: 'metadata', inputsValues: metadata }];
    let id = 1;
    const add = (n: Omit<ChakraNodeInit, 'id'>): number => {
      nodes.push({ ...n, id });
      return id++;
    };
    const comp = (name: string, flops: number, bytes: number, deps: number[]): number =>
      add({ name, kind: 'comp', numOps: Math.round(flops), tensorSize: Math.round(bytes), dataDeps: deps });
    const coll = (name: string, collective: 'allreduce' | 'alltoall', bytes: number, pg: string, deps: number[]): number =>
      add({ name, kind: 'coll', collective, commSize: Math.round(bytes), pgName: pg, dataDeps: deps });
    const tpReduce = (name: string, dep: number): number => (tp > 1 ? coll(name, 'allreduce', act, tpGroup.get(r)!, [dep]) : dep);
    const mlp = (name: string, factor: number, dep: number): number => {
      if (ep <= 1) return comp(`${name} mlp`, factor * mlpFlops, mlpBytes, [dep]);
      // Every token goes to its expert and back: the whole activation block each way.
      const dispatch = coll(`${name} expert dispatch`, 'alltoall', act, epGroup.get(r)!, [dep]);
      const expert = comp(`${name} expert mlp`, factor * mlpFlops, mlpBytes, [dispatch]);
      return coll(`${name} expert combine`, 'alltoall', act, epGroup.get(r)!, [expert]);
    };
    const tag = (micro: number, backward: boolean): number => micro * 2 + (backward ? 1 : 0);
    const gradReady: number[] = [];
    // GPipe: every microbatch forward, then every microbatch backward.
    const fwdEnd: number[] = [];
    let last = 0;
    for (let micro = 0; micro < m; micro++) {
      let x = micro === 0 ? 0 : last;
      if (s > 0) x = add({ name: `mb${micro} recv activations`, kind: 'recv', commSrc: rankOf(d, s - 1, t), commDst: r, commSize: act, commTag: tag(micro, false), dataDeps: x ? [x] : [] });
      for (let l = 0; l < layersPerStage; l++) {
        const L = s * layersPerStage + l;
        const name = `mb${micro} L${L} fwd`;
        const a = comp(`${name} attention`, attnFlops, attnBytes, x ? [x] : []);
        const ar1 = tpReduce(`${name} attention allreduce`, a);
        const f = mlp(name, 1, ar1);
        x = tpReduce(`${name} mlp allreduce`, f);
      }
      if (s < pp - 1) add({ name: `mb${micro} send activations`, kind: 'send', commSrc: r, commDst: rankOf(d, s + 1, t), commSize: act, commTag: tag(micro, false), dataDeps: [x] });
      fwdEnd.push(x);
      last = x;
    }
    for (let micro = 0; micro < m; micro++) {
      let x = last;
      if (s < pp - 1) x = add({ name: `mb${micro} recv gradients`, kind: 'recv', commSrc: rankOf(d, s + 1, t), commDst: r, commSize: act, commTag: tag(micro, true), dataDeps: [x] });
      for (let l = layersPerStage - 1; l >= 0; l--) {
        const L = s * layersPerStage + l;
        const name = `mb${micro} L${L} bwd`;
        const f = mlp(name, 2, x);
        const ar1 = tpReduce(`${name} mlp allreduce`, f);
        const a = comp(`${name} attention`, 2 * attnFlops, attnBytes, [ar1]);
        x = tpReduce(`${name} attention allreduce`, a);
        if (micro === m - 1) gradReady[l] = a;
      }
      if (s > 0) add({ name: `mb${micro} send gradients`, kind: 'send', commSrc: r, commDst: rankOf(d, s - 1, t), commSize: act, commTag: tag(micro, true), dataDeps: [x] });
      last = x;
    }
    // Gradient allreduce per layer, overlapping the backward of the layers below; then the optimizer.
    const grads: number[] = [];
    for (let l = layersPerStage - 1; l >= 0; l--) {
      if (dp > 1) grads.push(coll(`L${s * layersPerStage + l} gradient allreduce`, 'allreduce', gradBytes, dpGroup.get(r)!, [gradReady[l]]));
      else grads.push(gradReady[l]);
    }
    const paramsPerRank = (12 * h * h * layersPerStage) / tp;
    comp('optimizer step', 10 * paramsPerRank, 16 * paramsPerRank, [...grads, last]);
    ranks.push(nodes);
  }
  return { ranks, groups, params: { tp, pp, dp, ep, layers, hidden: h, sequence: seq, microbatch: mb, microbatches: m, bytesPerElement: e, ranks: R } };
}

/** The generated workload through the real encoder, reader and checks (as files would be): `name.<rank>.et`. */
export function generatedTrace(gen: GeneratedWorkload, name = 'transformer'): ChakraTrace {
  return assembleTrace(gen.ranks.map((nodes, r) => decodeChakraRank(encodeChakraRank(nodes), `${name}.${r}.et`, r)));
}
