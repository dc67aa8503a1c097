/**
 * `fullmesh-adaptive` (seed 001, spec/seed001_fullmesh.md §3): the communication control unit
 * (../fullmesh-control.ts) chooses, for this transfer, direct links only, 1-hop links only, or
 * both, and K, from the data size and the link state, and the schedule is the matching embodiment
 * through exactly the turnaround nodes it chose:
 * - one-to-one: direct, or the split over L direct and K 1-hop links (fullmesh-split);
 * - broadcast: the direct multicast of 図47, or fullmesh-multicast through the chosen turnarounds
 *   (3rd embodiment with max-K: the sender included, K = N; 6th with variable-K: the sender excluded);
 * - reduce: every rank to the root, or fullmesh-turnaround through the chosen turnarounds;
 * - allreduce: every rank to every rank, or fullmesh-turnaround.
 * One collective runs on an idle machine here; the library's ControlUnit takes busy links
 * (`occupy`) and queues of communications for the rest.
 */
import { ControlUnit, type ControlDecision, type ControlCommType } from '../fullmesh-control.js';
import { registerAlgorithm, type AlgorithmContext } from '../registry.js';
import { RECV, SEND } from '../schedule.js';
import { DTYPE_BYTES, type CollectiveKind } from '../types.js';
import { buildTurnaroundReduction } from './allreduce/fullmesh-turnaround.js';
import { emitMulticast } from './broadcast/fullmesh-multicast.js';
import { fullMeshRefusal, linkPorts } from './fullmesh.js';
import { emitOneToOneSplit } from './one-to-one/fullmesh-split.js';

const COMM_TYPE: Readonly<Partial<Record<CollectiveKind, ControlCommType>>> = { 'one-to-one': 'one-to-one', broadcast: 'multicast', reduce: 'reduce', allreduce: 'allreduce' };

/** The control unit this algorithm's parameters describe, on the topology's link bandwidth. */
export function adaptiveControlUnit(ctx: AlgorithmContext): ControlUnit {
  const t = ctx.topology;
  const bandwidth = t.chBandwidth[t.channelBetween(t.endpoints[0], t.endpoints[1])];
  const kMax = ctx.params.kmax as number;
  return new ControlUnit({
    nodes: ctx.ranks,
    bandwidth,
    t0: (ctx.params.t0 as number) * 1e-6,
    t1: (ctx.params.t1 as number) * 1e-6,
    t1Reduce: (ctx.params['t1-reduce'] as number) * 1e-6,
    policy: ctx.params.policy as 'max-K' | 'variable-K',
    kMin: ctx.params.kmin as number,
    ...(kMax > 0 ? { kMax } : {}),
    headerBits: ctx.params.header as number,
    packetSeconds: (ctx.params.packet as number) * 1e-9,
  });
}

/** What the control unit decides for this collective on an idle full mesh. */
export function adaptiveDecision(ctx: AlgorithmContext): ControlDecision {
  const unit = DTYPE_BYTES[ctx.dtype];
  return adaptiveControlUnit(ctx).verify({ type: COMM_TYPE[ctx.collective]!, sender: ctx.root, receiver: ctx.peer, count: Math.floor(ctx.size / unit), precision: unit });
}

function register(collective: CollectiveKind): void {
  registerAlgorithm({
    name: 'fullmesh-adaptive',
    collective,
    description: 'seed 001: the control unit picks direct, 1-hop or both and K from the size and link state',
    supportsText: 'full mesh of 3 or more ranks',
    source: 'seed 001 (JP 2020-046713, control unit §3)',
    params: [
      { key: 'policy', kind: 'choice', choices: ['max-K', 'variable-K'], default: 'max-K', description: 'max-K: 3rd-embodiment flow (図21), K at its maximum; variable-K: 6th embodiment (図42)' },
      { key: 't0', kind: 'number', default: 2, min: 0, description: 'direct-link latency T0, µs ([0057])' },
      { key: 't1', kind: 'number', default: 2.1, min: 0, description: '1-hop latency T1 of 1-to-1 and multicast, µs (2.1: turned around in the switch, [0035], [0057])' },
      { key: 't1-reduce', kind: 'number', default: 4, min: 0, description: 'T1 of reduce and allreduce, µs (4: the reduction passes through memory, [0100]; 2.4 with the 5th embodiment\'s reduce unit)' },
      { key: 'header', kind: 'int', default: 100, min: 0, description: 'control header per packet, bits ([0051])' },
      { key: 'packet', kind: 'number', default: 50, min: 1, description: 'packet duration on the link, ns ([0051])' },
      { key: 'kmin', kind: 'int', default: 1, min: 1, description: 'smallest K variable-K accepts ([0126])' },
      { key: 'kmax', kind: 'int', default: 0, min: 0, description: 'largest K variable-K uses; 0 = the type maximum ([0126])' },
      { key: 'select', kind: 'choice', choices: ['auto', 'direct'], default: 'auto', description: 'auto: the control unit decides; direct: direct links only (the related full mesh of 図47, the baseline)' },
    ],
    supports(ctx) {
      const unit = DTYPE_BYTES[ctx.dtype];
      if (collective !== 'one-to-one' && ctx.size % unit !== 0) return `a size that is a whole number of ${ctx.dtype} elements (${unit} B), got ${ctx.size}`;
      const refusal = fullMeshRefusal(ctx.topology);
      if (refusal) return refusal;
      const d = ctx.params.select === 'direct' ? { K: 0, L: 1 } : adaptiveDecision(ctx);
      if (d.K > 0 && ctx.size / (collective === 'one-to-one' ? 1 : unit) < d.K + d.L) return `size ${ctx.size} B cannot be split into the ${d.K + d.L} pieces the control unit chose`;
      return undefined;
    },
    build(ctx, newBuilder) {
      const d = ctx.params.select === 'direct' ? { K: 0, L: 1, turnarounds: [] } : adaptiveDecision(ctx);
      const n = ctx.ranks;
      const S = ctx.size;
      if (collective === 'reduce' || (collective === 'allreduce' && d.K > 0)) {
        return buildTurnaroundReduction(ctx, newBuilder, d.K > 0 ? d.turnarounds : [ctx.root]);
      }
      const b = newBuilder({ expectedOps: 4 * n * n, streams: linkPorts(n - 1) });
      if (collective === 'one-to-one') {
        emitOneToOneSplit(b, ctx.topology, ctx.root, ctx.peer, S, d.turnarounds, d.L);
      } else if (collective === 'broadcast') {
        emitMulticast(b, ctx.topology, ctx.root, S, d.K > 0 ? d.turnarounds : [ctx.root], false);
      } else {
        // Direct-only allreduce: every rank sends its whole buffer to every other over its own link.
        const slots = b.tmpBuffer('slots', (n - 1) * S);
        for (let r = 0; r < n; r++) {
          b.copy(r, b.region(SEND, 0, S), b.region(RECV, 0, S));
          b.send(r, Array.from({ length: n }, (_, j) => j).filter((j) => j !== r), b.region(SEND, 0, S), 0, 0, b.hint('direct'));
        }
        for (let r = 0; r < n; r++) {
          let slot = 0;
          for (let j = 0; j < n; j++) {
            if (j === r) continue;
            const into = b.region(slots, slot++ * S, S);
            b.recv(r, j, into, 0);
            b.reduce(r, into, b.region(RECV, 0, S));
          }
        }
      }
      return b.finish();
    },
  });
}

for (const c of ['one-to-one', 'broadcast', 'reduce', 'allreduce'] as const) register(c);
