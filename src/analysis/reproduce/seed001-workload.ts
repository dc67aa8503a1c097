/**
 * Seed 001's control unit driving a timed workload (issue 27): communications arrive over time, the
 * unit (src/collectives/fullmesh-control.ts) decides each one's links on the link table as it stands
 * (図21 max-K or 図42 variable-K), queues what cannot start (FIFO, S203) and starts waiting ones as
 * others complete (図26). Each started communication holds its links alone (the link table gives
 * every directed link to one communication), so its duration is the time of the chosen schedule
 * (direct, or the split over the chosen K turnarounds and L direct links) on an otherwise idle
 * full mesh, measured on the flow or the packet engine (seed001-timing.ts's model) and cached.
 *
 * Two workloads, one per sentence:
 * - [0125] "in applications where many communications arise at once, combining 図42 with 図21 lets
 *   communications start without waiting and reduces the waiting time, and so the total time":
 *   1-to-1 transfers between random pairs, sizes log-uniform, arrivals at random over time, three loads.
 * - [0126] "for applications with periodic collectives (deep learning), running one collective as
 *   efficiently as possible (K fixed at its maximum, 図21) reduces the time": a large multicast
 *   every period from a rotating root, each arriving while a short 1-to-1 transfer holds some links.
 * Deterministic: every random choice comes from a seeded generator.
 */
import { buildSchedule } from '../../collectives/index.js';
import { ControlUnit, type Communication, type ControlDecision } from '../../collectives/fullmesh-control.js';
import type { CollectiveKind } from '../../collectives/types.js';
import type { Claim } from '../../report/checklist.js';
import type { Table } from '../../report/table.js';
import { fullMeshRouting } from '../../routing/full-mesh.js';
import { lowerSchedule } from '../../sim/program/from-schedule.js';
import type { FlowProgram } from '../../sim/program/program.js';
import { simulate } from '../../sim/simulate.js';
import type { Topology } from '../../topology/graph.js';
import { buildTopology } from '../../topology/index.js';
import { Rng } from '../../util/rng.js';
import { parallelIssue, SEED001_MODEL, SEED001_PACKET_MODEL, SEED001_T0, type Seed001Engine } from './seed001-timing.js';

export type ControlPolicy = 'max-K' | 'variable-K';

export interface WorkloadArrival {
  /** Arrival time, seconds. */
  readonly at: number;
  readonly comm: Communication;
  /** What the arrival is, for the table (e.g. "background 1-to-1"). */
  readonly role: string;
}

export interface WorkloadRecord {
  readonly arrival: WorkloadArrival;
  readonly start: number;
  readonly finish: number;
  readonly decision: ControlDecision;
}

export interface WorkloadResult {
  readonly policy: ControlPolicy;
  readonly engine: Seed001Engine;
  readonly records: readonly WorkloadRecord[];
  /** Mean of start − arrival over the communications, seconds. */
  readonly meanWait: number;
  /** Mean of finish − arrival (each communication's total communication time), seconds. */
  readonly meanCompletion: number;
  /** Last finish, seconds. */
  readonly makespan: number;
}

/** N, link rate and latencies of the study: the document's N = 8 example at 20 Gbps, T1 in the switch (3rd and 6th embodiments). */
export const WORKLOAD_SETUP = { n: 8, gbps: 20, t1: 2.1e-6 } as const;

/**
 * The duration of one decided communication on an idle full mesh: the schedule the decision names,
 * lowered once at a base size, retimed to the size (the sends a rank issues first go out in
 * parallel, turnarounds in the switch) and run on the engine. Cached by (form, size).
 */
export class DecisionTimer {
  private readonly topology: Topology;
  private readonly routing;
  private readonly lowered = new Map<string, { program: FlowProgram; bytes: number }>();
  private readonly cache = new Map<string, number>();

  constructor(
    readonly engine: Seed001Engine,
    readonly n: number = WORKLOAD_SETUP.n,
    readonly gbps: number = WORKLOAD_SETUP.gbps,
  ) {
    this.topology = buildTopology(`fullmesh:${n},bw=${gbps}Gbps,lat=0`);
    this.routing = fullMeshRouting(this.topology);
  }

  /** The schedule of a decision: collective, algorithm and a base size every piece divides. */
  private scheduleOf(comm: Communication, d: ControlDecision): { collective: CollectiveKind; algorithm: string; base: number } {
    const base = 64 * 4 * 7 * 6 * 5 * 8;
    if (comm.type === 'one-to-one') return d.choice === 'direct' ? { collective: 'one-to-one', algorithm: 'direct', base } : { collective: 'one-to-one', algorithm: `fullmesh-split:K=${d.K},L=${d.L}`, base };
    if (comm.type === 'multicast') {
      if (d.choice === 'direct') return { collective: 'scatter', algorithm: 'linear', base };
      // 3rd embodiment: the sender is one of the K = N turnarounds; 6th: the sender excluded.
      const withSender = d.turnarounds.includes(comm.sender);
      return { collective: 'broadcast', algorithm: withSender ? 'fullmesh-multicast:embodiment=3' : `fullmesh-multicast:embodiment=6,K=${d.K}`, base };
    }
    throw new Error(`workload timing: communication type ${comm.type} is not in the study`);
  }

  /** Seconds the decided communication takes alone on its links. */
  seconds(comm: Communication, d: ControlDecision): number {
    const bytes = comm.count * comm.precision;
    const s = this.scheduleOf(comm, d);
    const key = `${s.collective} ${s.algorithm} ${bytes}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    let low = this.lowered.get(`${s.collective} ${s.algorithm}`);
    if (!low) {
      low = { program: lowerSchedule(buildSchedule({ collective: s.collective, algorithm: s.algorithm, topology: this.topology, size: s.base, root: comm.sender, peer: comm.receiver ?? (comm.sender + 1) % this.n })), bytes: s.base };
      this.lowered.set(`${s.collective} ${s.algorithm}`, low);
    }
    const model = this.engine === 'flow' ? SEED001_MODEL : SEED001_PACKET_MODEL;
    const t = simulate({ topology: this.topology, routing: this.routing, program: parallelIssue(low.program, bytes / low.bytes, 'switch'), engine: this.engine, model }).makespan_s;
    this.cache.set(key, t);
    return t;
  }
}

/**
 * Runs a workload through a control unit: arrivals in time order, completions as events, the unit's
 * FIFO and 図26 restart pass. The unit's own prediction never sets a time: the engine does.
 */
export function runWorkload(arrivals: readonly WorkloadArrival[], policy: ControlPolicy, timer: DecisionTimer): WorkloadResult {
  const cu = new ControlUnit({ nodes: timer.n, bandwidth: (timer.gbps * 1e9) / 8, t0: SEED001_T0, t1: WORKLOAD_SETUP.t1, headerBits: 0, policy });
  const order = arrivals.map((a, i) => ({ a, i })).sort((x, y) => x.a.at - y.a.at || x.i - y.i);
  const byId = new Map<number, { a: WorkloadArrival; i: number }>();
  const running: Array<{ id: number; finish: number }> = [];
  const records: WorkloadRecord[] = new Array<WorkloadRecord>(arrivals.length);
  const start = (row: { id: number; comm: Communication; decision: ControlDecision }, now: number): void => {
    const item = byId.get(row.id)!;
    const finish = now + timer.seconds(row.comm, row.decision);
    records[item.i] = { arrival: item.a, start: now, finish, decision: row.decision };
    running.push({ id: row.id, finish });
  };
  let next = 0;
  while (next < order.length || running.length > 0) {
    running.sort((x, y) => x.finish - y.finish || x.id - y.id);
    const arrivalAt = next < order.length ? order[next].a.at : Infinity;
    // Completions first at equal times: links freed at t are free for an arrival at t.
    if (running.length > 0 && running[0].finish <= arrivalAt) {
      const done = running.shift()!;
      for (const row of cu.complete(done.id)) start(row, done.finish);
      continue;
    }
    const { a, i } = order[next++];
    const row = cu.submit(a.comm);
    byId.set(row.id, { a, i });
    if (row.state === 'communicating') start(row, a.at);
  }
  const mean = (f: (r: WorkloadRecord) => number) => records.reduce((s, r) => s + f(r), 0) / records.length;
  return {
    policy,
    engine: timer.engine,
    records,
    meanWait: mean((r) => r.start - r.arrival.at),
    meanCompletion: mean((r) => r.finish - r.arrival.at),
    makespan: records.reduce((m, r) => Math.max(m, r.finish), 0),
  };
}

/** Bytes rounded to whole 4-byte elements, at least one per piece of the widest split (N pieces). */
const elements = (bits: number, n: number): number => Math.max(n, Math.round(bits / 32));

/**
 * [0125]'s workload: `count` 1-to-1 transfers between distinct random pairs, sizes log-uniform in
 * [lo, hi] bits, exponential gaps of mean `gap` seconds.
 */
export function concurrentWorkload(o: { seed: number; count: number; gap: number; loBits: number; hiBits: number; n?: number }): WorkloadArrival[] {
  const n = o.n ?? WORKLOAD_SETUP.n;
  const rng = new Rng(o.seed);
  let t = 0;
  return Array.from({ length: o.count }, () => {
    t += -Math.log(1 - rng.next()) * o.gap;
    const sender = rng.int(n);
    const receiver = (sender + 1 + rng.int(n - 1)) % n;
    const bits = o.loBits * (o.hiBits / o.loBits) ** rng.next();
    return { at: t, role: '1-to-1', comm: { type: 'one-to-one' as const, sender, receiver, count: elements(bits, n), precision: 4 } };
  });
}

/**
 * [0126]'s workload: every `period` seconds a multicast of `bits` from the next root, and `lead`
 * seconds before it a short 1-to-1 transfer of `backgroundBits` between two other nodes.
 */
export function periodicWorkload(o: { seed: number; rounds: number; period: number; bits: number; backgroundBits: number; lead: number; n?: number }): WorkloadArrival[] {
  const n = o.n ?? WORKLOAD_SETUP.n;
  const rng = new Rng(o.seed);
  return Array.from({ length: o.rounds }, (_, k) => {
    const root = k % n;
    const sender = (root + 1 + rng.int(n - 1)) % n;
    let receiver = (sender + 1 + rng.int(n - 1)) % n;
    if (receiver === root) receiver = (receiver + 1) % n === sender ? (receiver + 2) % n : (receiver + 1) % n;
    const at = (k + 1) * o.period;
    return [
      { at: at - o.lead, role: 'background 1-to-1', comm: { type: 'one-to-one' as const, sender, receiver, count: elements(o.backgroundBits, n), precision: 4 } },
      { at, role: 'periodic multicast', comm: { type: 'multicast' as const, sender: root, count: elements(o.bits, n), precision: 4 } },
    ];
  }).flat();
}

/** The policies of the study: 図21 (K at its maximum, wait otherwise) and 図42 (K from the free links). */
const POLICIES: readonly ControlPolicy[] = ['max-K', 'variable-K'];
const us = (s: number): string => (s * 1e6).toFixed(2);

interface PolicyPoint {
  readonly engine: Seed001Engine;
  readonly setting: string;
  readonly maxK: WorkloadResult;
  readonly variableK: WorkloadResult;
}

/** Mean finish − arrival of the communications with this role, seconds. */
function meanCompletionOf(r: WorkloadResult, role: string): number {
  const rs = r.records.filter((x) => x.arrival.role === role);
  return rs.reduce((s, x) => s + x.finish - x.arrival.at, 0) / rs.length;
}

/**
 * The two policy claims and their table: [0125] on the concurrent workload at three loads, [0126]
 * on the periodic one with two kinds of background transfer, each at flow and packet level.
 */
export function workloadClaims(quick: boolean): { claims: Claim[]; table: Table } {
  const engines: readonly Seed001Engine[] = ['flow', 'packet'];
  const timers = new Map(engines.map((e) => [e, new DecisionTimer(e)]));
  const gaps = [20e-6, 5e-6, 1e-6];
  const seeds = quick ? [1] : [1, 2, 3];
  const concurrent: PolicyPoint[] = engines.flatMap((engine) =>
    seeds.flatMap((seed) =>
      gaps.map((gap) => {
        const wl = concurrentWorkload({ seed, count: 24, gap, loBits: 1e4, hiBits: 1e6 });
        const [maxK, variableK] = POLICIES.map((p) => runWorkload(wl, p, timers.get(engine)!));
        return { engine, setting: `seed ${seed}, mean gap ${us(gap)} µs`, maxK, variableK };
      }),
    ),
  );
  const backgrounds = [
    { bits: 2e3, text: '2 kbit background (direct link only)' },
    { bits: 50e3, text: '50 kbit background (split over K = 6)' },
  ];
  const periodic: PolicyPoint[] = engines.flatMap((engine) =>
    backgrounds.map((bg) => {
      const wl = periodicWorkload({ seed: 2, rounds: 8, period: 200e-6, bits: 2e6, backgroundBits: bg.bits, lead: 1e-6 });
      const [maxK, variableK] = POLICIES.map((p) => runWorkload(wl, p, timers.get(engine)!));
      return { engine, setting: bg.text, maxK, variableK };
    }),
  );
  const rows: Array<Array<string | number>> = [];
  for (const p of concurrent) rows.push(['[0125] concurrent 1-to-1', p.engine, p.setting, us(p.maxK.meanWait), us(p.variableK.meanWait), us(p.maxK.meanCompletion), us(p.variableK.meanCompletion), us(p.maxK.makespan), us(p.variableK.makespan)]);
  for (const p of periodic) rows.push(['[0126] periodic multicast', p.engine, p.setting, us(p.maxK.meanWait), us(p.variableK.meanWait), us(meanCompletionOf(p.maxK, 'periodic multicast')), us(meanCompletionOf(p.variableK, 'periodic multicast')), us(p.maxK.makespan), us(p.variableK.makespan)]);
  const table: Table = {
    id: '001-control-workload',
    title: 'Seed 001 control unit on timed workloads: 図21 (max-K) against 図42 (variable-K), fullmesh:8, 20 Gbps',
    figure: '001 図21, 図26, 図42; [0125], [0126]',
    columns: ['workload', 'engine', 'setting', 'mean wait max-K (µs)', 'mean wait variable-K (µs)', 'mean completion max-K (µs)', 'mean completion variable-K (µs)', 'last finish max-K (µs)', 'last finish variable-K (µs)'],
    rows,
    note: 'Completion = finish − arrival (for the periodic workload: of the multicasts). Each started communication holds its links alone (the link table), so its duration is its schedule timed alone on the engine; the unit\'s prediction only chooses.',
  };

  // [0125]: 図42 lets communications start without waiting: less waiting and less total time.
  const fewerWaits = concurrent.filter((p) => p.variableK.meanWait < p.maxK.meanWait);
  const shorter = concurrent.filter((p) => p.variableK.meanCompletion < p.maxK.meanCompletion);
  const worst125 = concurrent.reduce((a, p) => (p.maxK.meanCompletion / p.variableK.meanCompletion < a.maxK.meanCompletion / a.variableK.meanCompletion ? p : a));
  const ok125 = fewerWaits.length === concurrent.length && shorter.length === concurrent.length;
  const setup = [`fullmesh:8, 20 Gbps, T0 = 2 µs, T1 = 2.1 µs (turnaround in the switch, 3rd and 6th embodiments)`, 'durations from the engine (flow, or packet with 32-byte flits and FIFO source queues); the unit\'s own cost model only decides', 'FIFO start order (S203) and the 図26 restart pass that stops at the first communication that cannot start (spec §3.5)'];
  const policies125: Claim = {
    id: '001.control.policies',
    source: 'document',
    form: 'ordering',
    claim: 'With many communications arising at once, 図42\'s control (K from the free links) lets communications start without waiting, reducing their waiting time and so the total communication time',
    where: '[0125]; 図21, 図42',
    expected: 'variable-K: less waiting and a shorter total time than max-K',
    decides: `smallest max-K / variable-K mean completion ${(worst125.maxK.meanCompletion / worst125.variableK.meanCompletion).toFixed(3)} (${worst125.engine}, ${worst125.setting})`,
    rule: 'ordering: variable-K\'s mean wait and mean completion time (finish − arrival) both below max-K\'s at every load and seed, on both engines',
    evidence: { columns: ['engine', 'setting', 'wait max-K / variable-K (µs)', 'completion max-K / variable-K (µs)'], rows: concurrent.map((p) => [p.engine, p.setting, `${us(p.maxK.meanWait)} / ${us(p.variableK.meanWait)}`, `${us(p.maxK.meanCompletion)} / ${us(p.variableK.meanCompletion)}`]) },
    measured: concurrent.map((p) => `${p.engine} ${p.setting}: wait ${us(p.maxK.meanWait)} / ${us(p.variableK.meanWait)} µs, completion ${us(p.maxK.meanCompletion)} / ${us(p.variableK.meanCompletion)} µs`).join('; '),
    ...(ok125
      ? { verdict: 'reproduced-under-reading' as const, reading: 'spec §3.5 (the workload is not given): 24 1-to-1 transfers between random pairs, 10 kbit–1 Mbit log-uniform, exponential gaps of mean 20, 5 and 1 µs; "combining 図42 with 図21" read as the 図42 flow, whose 1-hop test is 図21\'s' }
      : { verdict: 'not-reproduced' as const, why: `variable-K waits less at ${fewerWaits.length} and finishes sooner at ${shorter.length} of ${concurrent.length} points` }),
    threshold: 'strictly less waiting and a strictly shorter mean completion at every point',
    sensitivity: `the gain grows with the load: mean completion max-K / variable-K ${concurrent.map((p) => (p.maxK.meanCompletion / p.variableK.meanCompletion).toFixed(2)).join(', ')}`,
    setup,
  };

  // [0126]: for periodic collectives, running each as efficiently as possible (K at its maximum) is faster.
  const maxKFaster = periodic.filter((p) => meanCompletionOf(p.maxK, 'periodic multicast') < meanCompletionOf(p.variableK, 'periodic multicast'));
  const ok126 = maxKFaster.length === periodic.length;
  const ratio126 = (p: PolicyPoint) => meanCompletionOf(p.variableK, 'periodic multicast') / meanCompletionOf(p.maxK, 'periodic multicast');
  const worst126 = periodic.reduce((a, p) => (ratio126(p) < ratio126(a) ? p : a));
  const kOf = (r: WorkloadResult) => [...new Set(r.records.filter((x) => x.arrival.role === 'periodic multicast').map((x) => x.decision.K))].join('/');
  const policies126: Claim = {
    id: '001.control.periodic',
    source: 'document',
    form: 'ordering',
    claim: 'For periodic collectives (deep learning), running each collective as efficiently as possible with K fixed at its maximum (図21) takes less communication time than variable K',
    where: '[0126]; 図21, 図42',
    expected: 'max-K: shorter multicasts than variable-K on a periodic workload',
    decides: `smallest variable-K / max-K multicast completion ${ratio126(worst126).toFixed(3)} (${worst126.engine}, ${worst126.setting})`,
    rule: 'ordering: max-K\'s mean multicast completion below variable-K\'s at every background and on both engines',
    evidence: { columns: ['engine', 'setting', 'multicast completion max-K / variable-K (µs)', 'K max-K / variable-K'], rows: periodic.map((p) => [p.engine, p.setting, `${us(meanCompletionOf(p.maxK, 'periodic multicast'))} / ${us(meanCompletionOf(p.variableK, 'periodic multicast'))}`, `${kOf(p.maxK)} / ${kOf(p.variableK)}`]) },
    measured: periodic.map((p) => `${p.engine} ${p.setting}: multicast ${us(meanCompletionOf(p.maxK, 'periodic multicast'))} (K ${kOf(p.maxK)}) / ${us(meanCompletionOf(p.variableK, 'periodic multicast'))} µs (K ${kOf(p.variableK)})`).join('; '),
    ...(ok126
      ? { verdict: 'reproduced-under-reading' as const, reading: 'spec §3.5: 2 Mbit multicasts every 200 µs from a rotating root, a short 1-to-1 transfer arriving 1 µs before each' }
      : {
          verdict: 'not-reproduced' as const,
          why: `max-K is slower at ${periodic.length - maxKFaster.length} of ${periodic.length} points: 図21's multicast is the 3rd-embodiment form (the sender one of K = N turnarounds, time ≈ 2/N of direct), while 図42's is the 6th (sender excluded, 1/K): at N = 8 any K ≥ 5 of 図42 beats 図21's K = 8, so "as efficiently as possible" is not what K at its maximum gives in this model`,
        }),
    threshold: 'max-K strictly faster at every point',
    sensitivity: `variable-K / max-K ${periodic.map((p) => ratio126(p).toFixed(3)).join(', ')}`,
    setup,
  };
  return { claims: [policies125, policies126], table };
}
