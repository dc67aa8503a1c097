/**
 * The core in a Web Worker: every topology build, metric, verification and simulation runs here so
 * the page never freezes. Requests carry an id; replies are progress, a result, or an error. An
 * InputError or LimitError is a user error, sent as the CLI's one line. Cancelling terminates the
 * worker (web/src/client.ts), so nothing here needs to poll for it.
 */
import { InputError, LimitError } from '../../src/util/errors.js';
import { parseSize } from '../../src/util/units.js';
import { parseRates } from '../../src/util/rates.js';
import type { Topology } from '../../src/topology/graph.js';
import { buildTopology } from '../../src/topology/registry.js';
import { refuseSingleEndpoint } from '../../src/topology/endpoint-count.js';
import { checkSize } from '../../src/topology/builder.js';
import { estimateSpecSize } from '../../src/topology/estimate.js';
import { computeMetrics, metricsRecord } from '../../src/topology/metrics/index.js';
import { makeRouteBuffers } from '../../src/routing/types.js';
import { resolveRouting } from '../../src/routing/registry.js';
import { OP_NAMES, parseCollective } from '../../src/collectives/types.js';
import { listAlgorithms } from '../../src/collectives/registry.js';
// Registers every built-in algorithm (the registry alone is empty).
import '../../src/collectives/index.js';
import { executeSchedule } from '../../src/collectives/executor.js';
import { prepare, type PreparedCollective, type RunIo } from '../../src/sim/prepare.js';
import { runPrepared, simulate, type CollectiveRunView, type TrafficResult } from '../../src/sim/simulate.js';
import { topologyFromFileDocument, topologyFromFileSpec } from '../../src/interop/topology-file.js';
import { verifyMscclSchedule } from '../../src/interop/msccl/run.js';
import { structuredLayout, type Layout } from './layout.js';
import { HeatmapRecorder, totalUtilisation } from './heatmap-recorder.js';
import { opTimesOf } from '../../src/sim/assemble.js';
import type { AlgorithmInfo, CollectiveReply, CompareReply, Drawing, GanttData, PerfReply, PerfReplyRow, Reply, Request, RouteReply, TopologyReply, TrafficReply, WorkloadReply } from './protocol.js';
import { modelOptionsFromText } from '../../src/sim/options-schema.js';
import { compareAlgorithms } from '../../src/sim/compare.js';
import type { RunRequest } from '../../src/sim/request.js';
import type { WorkloadRunView } from '../../src/workload/request.js';

/** A page holds the graph, its drawing and a run's frames: larger networks belong to the CLI. */
export const WEB_MAX_NODES = 1 << 20;
/** Channels drawn one line each on a canvas; beyond this only the metrics are shown. */
export const WEB_MAX_DRAWN_CHANNELS = 1 << 16;
/** Ops kept for the Gantt chart (a rank's bars stay readable; later ranks are dropped past this). */
const GANTT_MAX_OPS = 200_000;
/** Animation frames of the link heatmap. */
const HEATMAP_FRAMES = 120;

let cached: Topology | undefined;
/** Files the user opened in the page, by name: `graphml:NAME`, `anynet:NAME`, `simgrid:NAME` and `file:NAME` read them. */
const uploads = new Map<string, string>();
/** The JSON graph reader (zod), loaded with the first uploaded file rather than with the worker. */
let graphFormat: typeof import('../../src/topology/file-format.js') | undefined;

function readUpload(path: string, field: string): string {
  const text = uploads.get(path);
  if (text === undefined) throw new InputError(field, path, 'a file opened in this page (a link carries the spec, not the file: open it again)');
  return text;
}

/** How the library reaches the page's files: the cached topology and the opened uploads. */
const pageRunIo: RunIo = {
  loadTopology: (spec, opts) => {
    if (opts.mapping !== undefined || opts.fail !== undefined) throw new InputError('mapping', opts.mapping ?? opts.fail, 'no mapping or failures in the Studio (use meshwork run or traffic)');
    return topologyOf(spec);
  },
  readText: (path, field) => readUpload(path, field),
};

/** The CLI's file specs, read from the page's uploads with the CLI's own readers. */
function topologyFromUpload(text: string): Topology | undefined {
  const fromFormat = topologyFromFileSpec(text, 'topology', readUpload);
  if (fromFormat || !text.toLowerCase().startsWith('file:')) return fromFormat;
  const path = text.slice(5);
  let doc: unknown;
  try {
    doc = JSON.parse(readUpload(path, 'topology'));
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError('topology', path, `a well-formed JSON file (${(err as Error).message.split('\n')[0]})`);
  }
  return topologyFromFileDocument(doc, path, 'topology', graphFormat);
}

async function upload(name: string, text: string): Promise<string> {
  uploads.set(name, text);
  graphFormat ??= await import('../../src/topology/file-format.js');
  // A file opened again under the same name replaces the one the cache was built from.
  cached = undefined;
  return name;
}

function topologyOf(spec: string): Topology {
  const text = spec.trim();
  if (cached && (cached.spec === text || (cached as { typed?: string }).typed === text)) return cached;
  if (text === '') throw new InputError('topology', spec, 'a spec such as torus:8x8');
  const fromFile = topologyFromUpload(text);
  const estimate = fromFile ? undefined : estimateSpecSize(text);
  if (estimate) {
    checkSize('topology', estimate.nodes, estimate.channels);
    if (estimate.nodes > WEB_MAX_NODES) throw new LimitError('topology', `${estimate.nodes} nodes`, `${WEB_MAX_NODES} nodes in the browser (use the CLI for larger networks)`);
  }
  const t = fromFile ?? buildTopology(text);
  if (t.numNodes > WEB_MAX_NODES) throw new LimitError('topology', `${t.numNodes} nodes`, `${WEB_MAX_NODES} nodes in the browser (use the CLI for larger networks)`);
  refuseSingleEndpoint(t, text);
  Object.defineProperty(t, 'typed', { value: text });
  cached = t;
  return t;
}

/** Layouts by network: a force layout costs seconds on the larger graphs, and the Collective view draws the same network again. */
const layouts = new WeakMap<Topology, Layout>();

async function drawingOf(t: Topology): Promise<Drawing | undefined> {
  if (t.numChannels > WEB_MAX_DRAWN_CHANNELS) return undefined;
  let layout = layouts.get(t) ?? structuredLayout(t);
  // graphology and ForceAtlas2 load with the first network that needs them, not with the worker.
  layout ??= { kind: 'force', xy: (await import('./force-layout.js')).forceLayout(t) };
  layouts.set(t, layout);
  return { layout: layout.kind, xy: layout.xy, nodeKind: t.nodeKind, chSrc: t.chSrc, chDst: t.chDst, rankOfNode: t.rankOfNode };
}

async function topology(spec: string): Promise<TopologyReply> {
  const t = topologyOf(spec);
  if (t.numEndpoints < 2) throw new InputError('topology', spec, `a topology with at least 2 endpoints (this one has ${t.numEndpoints})`);
  const metrics = metricsRecord(computeMetrics(t));
  const drawing = await drawingOf(t);
  return {
    spec: t.spec,
    family: t.family,
    metrics,
    drawing,
    notDrawn: drawing ? undefined : `${t.numChannels} channels: drawn up to ${WEB_MAX_DRAWN_CHANNELS}`,
  };
}

function route(spec: string, from: number, to: number): RouteReply {
  const t = topologyOf(spec);
  for (const [field, v] of [['from', from], ['to', to]] as const) {
    if (!Number.isInteger(v) || v < 0 || v >= t.numNodes || t.rankOfNode[v] < 0) throw new InputError(field, v, 'an endpoint node (routes run between endpoints)');
  }
  const routing = resolveRouting(t, { engine: 'packet' });
  const buffers = makeRouteBuffers(routing.maxHops);
  const hops = routing.route(from, to, 0, buffers);
  const channels = Array.from(buffers.channels.subarray(0, hops));
  return { routing: routing.name, nodes: [from, ...channels.map((c) => t.chDst[c])], channels };
}

function algorithms(collective: string): AlgorithmInfo[] {
  return listAlgorithms(parseCollective(collective)).map((a) => ({
    name: a.name,
    description: a.description,
    supportsText: a.supportsText,
    source: a.source,
    params: a.params.map((p) => ({ key: p.key, kind: p.kind, default: p.default, choices: p.kind === 'choice' ? p.choices : undefined, description: p.description })),
  }));
}

/**
 * The traffic form as RunRequests, one per pattern (what `meshwork traffic --print-request` prints
 * for the same fields): the library prepares and runs each, as it does the CLI's.
 */
export function trafficRequests(req: Extract<Request, { kind: 'traffic' }>): RunRequest[] {
  if (req.patterns.length === 0) throw new InputError('pattern', '(nothing)', 'at least one pattern');
  const rates = parseRates(req.rates);
  return req.patterns.map((pattern) => ({
    topology: req.spec,
    workload: { kind: 'traffic', pattern, rates, seed: req.seed },
    engine: 'packet',
    packet: { preset: 'booksim', config: { packetSize: req.packetSize } },
  }));
}

function traffic(req: Extract<Request, { kind: 'traffic' }>, progress: (f: number, note: string) => void): TrafficReply {
  const requests = trafficRequests(req);
  const total = requests.length * (requests[0].workload as { rates: number[] }).rates.length;
  let done = 0;
  const results = requests.map((request) => {
    const pattern = (request.workload as { pattern: string }).pattern;
    return simulate(request, pageRunIo, { progress: (_, note) => progress(++done / total, `${pattern} at ${note?.replace(/^rate /, '')}`) }) as TrafficResult;
  });
  const last = results[results.length - 1];
  const series = results.map((r) => ({
    pattern: r.pattern.name,
    saturationRate: r.saturation_rate,
    points: r.points.map((p) => ({ rate: p.rate, packet_latency: r.measurement === 'booksim' ? p.packet_latency : null, accepted_flit_rate: r.measurement === 'booksim' ? p.accepted_flit_rate : null, saturated: p.saturated })),
  }));
  return { routing: last.routing.name, preset: last.preset, config: { ...last.config }, series, requests: results.map((r) => r.request) };
}

/**
 * The collective form as a RunRequest (what `meshwork run --print-request` prints for the same
 * fields): a named collective, or the schedule file the user opened. The library prepares and runs
 * it, so the Studio refuses, routes and times as the CLI does.
 */
export function collectiveRequest(req: Extract<Request, { kind: 'collective' }>): RunRequest {
  const model = modelOptionsFromText(req.model ?? {});
  const size = parseSize(req.size, 'size');
  return {
    topology: req.spec,
    workload: req.schedule === undefined ? { kind: 'collective', collective: parseCollective(req.collective), algorithm: req.algorithm, size } : { kind: 'schedule', file: req.schedule, size },
    engine: req.engine,
    ...(Object.keys(model).length > 0 ? { model: model as RunRequest['model'] } : {}),
  };
}

/** Bytes mode checks every byte; past this many buffer bytes (all ranks) chunk identities are checked instead. */
const BYTES_MODE_LIMIT = 1 << 24;

async function collective(req: Extract<Request, { kind: 'collective' }>, progress: (f: number, note: string) => void): Promise<CollectiveReply> {
  const prepared = prepare(collectiveRequest(req), pageRunIo) as PreparedCollective;
  const t = prepared.topology;
  progress(0.05, `timing at ${req.engine} level`);
  const recorder = new HeatmapRecorder(t.chBandwidth);
  const simulateStart = performance.now();
  const result = runPrepared(prepared, {
    trace: req.engine === 'flow' ? recorder : undefined,
    progress: (f) => progress(0.05 + 0.8 * f, `timing at ${req.engine} level`),
  }) as CollectiveRunView;
  const simulateSeconds = (performance.now() - simulateStart) / 1e3;
  // The schedule that ran (built by the run, or read from the file) is verified byte for byte.
  const { schedule, program, raw } = result;
  // The Studio records a trace, so no run here is timed from its representatives alone (which builds neither).
  if (!schedule || !program) throw new Error('internal: a Studio run without its schedule');
  const msccl = prepared.loaded?.msccl;
  progress(0.9, 'verifying');
  let bufferBytes = 0;
  for (let rank = 0; rank < schedule.numRanks; rank++) for (let b = 0; b < schedule.buffers.length; b++) bufferBytes += schedule.bufferBytes(rank, b);
  const mode = bufferBytes > BYTES_MODE_LIMIT ? 'chunks' : 'bytes';
  const verifyStart = performance.now();
  // runs: a misplaced block is one line with its byte range, as collective verify prints it.
  const report = msccl ? verifyMscclSchedule(msccl, { mode, topology: t, runs: true }) : executeSchedule(schedule, { mode, topology: t, runs: true });
  const verifySeconds = (performance.now() - verifyStart) / 1e3;
  const verify = {
    pass: report.pass,
    summary: `${schedule.algorithmSpec}: ${schedule.numRanks} ranks, ${schedule.numOps} ops, ${report.messages} messages, ${report.checkedSlots} slots checked (${mode} mode)`,
    firstMismatch: report.mismatches[0]?.text ?? null,
    problems: report.problems.map((p) => `${p.kind}: ${p.message}`),
  };
  const heatmap = req.engine === 'flow' ? recorder.frames(result.makespan_s, HEATMAP_FRAMES) : totalUtilisation(result.channels.bytes, t.chBandwidth, result.makespan_s);
  let gantt: GanttData | undefined;
  if (raw) {
    const keep = program.opStart.length - 1;
    let ops = 0;
    let streams = 0;
    while (streams < keep && ops + program.opStart[streams + 1] - program.opStart[streams] <= GANTT_MAX_OPS) {
      ops += program.opStart[streams + 1] - program.opStart[streams];
      streams++;
    }
    const rank = new Int32Array(ops);
    for (let s = 0; s < streams; s++) rank.fill(program.streamRank[s], program.opStart[s], program.opStart[s + 1]);
    gantt = {
      rank,
      kind: Uint8Array.from(program.opKind.subarray(0, ops)),
      start: raw.opStart.slice(0, ops),
      end: raw.opEnd.slice(0, ops),
      kindNames: OP_NAMES,
      omitted: program.opStart[keep] - ops,
    };
  }
  // The record (the views are not enumerable, so not serialised), with the resolved request that re-runs it.
  return { verify, result: JSON.parse(JSON.stringify(result)), gantt, heatmap, drawing: await drawingOf(t), seconds: { verify: verifySeconds, simulate: simulateSeconds } };
}

function compare(req: Extract<Request, { kind: 'compare' }>, progress: (f: number, note: string) => void): CompareReply {
  // The library's compare over one request, as `meshwork compare` (sim/compare.ts); the base
  // request's algorithm is a placeholder each compared algorithm replaces.
  const request: RunRequest = { topology: req.spec, workload: { kind: 'collective', collective: parseCollective(req.collective), algorithm: 'compared', size: parseSize(req.size) } };
  const result = compareAlgorithms(request, { io: pageRunIo, progress: (f, algorithm) => progress(f, algorithm) });
  const runs = result.runs.map((r) => ({ algorithm: String(r.workload?.algorithm_spec), makespan_s: r.makespan_s, bound_s: r.bound_s, efficiency: r.efficiency }));
  return { bound_s: runs[0]?.bound_s ?? null, runs, skipped: [...result.skipped], failed: [...result.failed] };
}

/**
 * The quick reproduction, as `meshwork reproduce <seeds> --quick` runs it, in results.json's form.
 * The seed modules load on the first request: the other views never pay for them.
 */
async function seeds(selection: string, progress: (f: number, note: string) => void): Promise<unknown> {
  const { parseSeedSelection, resultsDocument, runReproductions } = await import('../../src/analysis/reproduce/index.js');
  const run = await runReproductions(parseSeedSelection(selection), { quick: true, onProgress: progress });
  return resultsDocument(run, { command: `reproduce ${selection} --quick`, toolVersion: MESHWORK_VERSION });
}

/** One claim, re-run with the smallest study that produces it (the library's rerunClaim: its verdict is the seed module's). */
async function claim(id: string, quick: boolean, progress: (f: number, note: string) => void): Promise<unknown> {
  const { rerunClaim } = await import('../../src/analysis/reproduce/index.js');
  return rerunClaim(id, { quick, onProgress: progress });
}

function handle(req: Request, progress: (f: number, note: string) => void): unknown {
  switch (req.kind) {
    case 'topology':
      return topology(req.spec);
    case 'route':
      return route(req.spec, req.from, req.to);
    case 'algorithms':
      return algorithms(req.collective);
    case 'traffic':
      return traffic(req, progress);
    case 'collective':
      return collective(req, progress);
    case 'compare':
      return compare(req, progress);
    case 'seeds':
      return seeds(req.seeds, progress);
    case 'claim':
      return claim(req.claim, req.quick, progress);
    case 'upload':
      return upload(req.name, req.text);
    case 'results':
      return import('../../src/analysis/reproduce/results-file.js').then((m) => m.parseResultsJson(req.text, req.name));
    case 'workload':
      return workload(req, progress);
    case 'perf':
      return perf(req, progress);
  }
}

/**
 * `meshwork perf` in the page: the library's size sweep, or its row-by-row comparison with a
 * measured table (the CLI's error column and geometric means; a preset's anchor rows by the
 * table's file name). The perf module loads with the first request.
 */
async function perf(req: Extract<Request, { kind: 'perf' }>, progress: (f: number, note: string) => void): Promise<PerfReply> {
  const { compareWithMeasured, parseMeasuredTable, parseNcclTestsSize, perfSweep, tableAnchors } = await import('../../src/sim/perf.js');
  const collective = parseCollective(req.collective);
  const topology = topologyOf(req.spec);
  const base = { topology, collective, algorithm: req.algorithm };
  if (req.measured) {
    progress(0.05, `timing the sizes of ${req.measured.name}`);
    const c = compareWithMeasured(base, parseMeasuredTable(req.measured.text, 'measured'), tableAnchors(req.measured.name));
    return {
      ranks: topology.numEndpoints,
      rows: c.rows.map((r) => ({ ...meshworkRow(r.meshwork), measured_time_s: r.measured.time_s, measured_busbw_Bps: r.measured.busbw_Bps, error: r.error, anchor: r.anchor })),
      geomean: { below1MiB: c.geomeanBelow1MiB, from1MiB: c.geomeanFrom1MiB, heldOutBelow1MiB: c.heldOutBelow1MiB, heldOutFrom1MiB: c.heldOutFrom1MiB },
    };
  }
  const factor = Number(req.factor);
  if (!(Number.isFinite(factor) && factor >= 1)) throw new InputError('stepfactor', req.factor, 'a number >= 1');
  const rows = perfSweep({ ...base, minBytes: parseNcclTestsSize(req.minBytes, 'minbytes'), maxBytes: parseNcclTestsSize(req.maxBytes, 'maxbytes'), factor, onRow: (row, i, total) => progress((i + 1) / total, `${row.size_bytes} B`) });
  return { ranks: topology.numEndpoints, rows: rows.map((r) => ({ ...meshworkRow(r), measured_time_s: null, measured_busbw_Bps: null, error: null, anchor: false })), geomean: null };
}

function meshworkRow(r: { size_bytes: number; time_s: number; busbw_Bps: number; algorithm: string }): Pick<PerfReplyRow, 'size_bytes' | 'time_s' | 'busbw_Bps' | 'algorithm'> {
  return { size_bytes: r.size_bytes, time_s: r.time_s, busbw_Bps: r.busbw_Bps, algorithm: r.algorithm };
}

/**
 * The Workload form as a RunRequest (a generated transformer step, or the Chakra files the user
 * opened), prepared and run by the library as `meshwork workload run` runs it: the workload modules
 * (and the protobuf codec) load on the first request. Every op goes to the Gantt chart, coloured by category.
 */
async function workload(req: Extract<Request, { kind: 'workload' }>, progress: (f: number, note: string) => void): Promise<WorkloadReply> {
  const { prepareRequest, runPreparedRequest } = await import('../../src/workload/request.js');
  const { OP_CATEGORIES } = await import('../../src/workload/lower.js');
  const { workloadRequest, openedFilesIo } = await import('./workload-request.js');
  progress(0.02, req.trace ? 'reading the trace' : 'generating the trace');
  const prepared = prepareRequest(workloadRequest(req), openedFilesIo(req.trace?.files ?? [], pageRunIo));
  const run = runPreparedRequest(prepared, { progress: (f) => progress(0.05 + 0.9 * f, `timing at ${req.engine} level`) }) as WorkloadRunView;
  const { program } = run.lowered;
  const times = opTimesOf(run.result);
  // The chart reads ranks in ascending order (its last op's rank is the last row): streams by rank,
  // the first ranks kept past the op limit.
  const streams = Array.from({ length: program.numStreams }, (_, s) => s).sort((a, b) => program.streamRank[a] - program.streamRank[b] || a - b);
  const ops = Math.min(program.numOps, GANTT_MAX_OPS);
  const gantt = { rank: new Int32Array(ops), kind: new Uint8Array(ops), start: new Float64Array(ops), end: new Float64Array(ops), kindNames: OP_CATEGORIES, omitted: program.numOps - ops };
  let i = 0;
  for (const s of streams) {
    for (let o = program.opStart[s]; o < program.opStart[s + 1] && i < ops; o++, i++) {
      gantt.rank[i] = program.streamRank[s];
      gantt.kind[i] = run.lowered.opCategory[o];
      gantt.start[i] = times.start[o];
      gantt.end[i] = times.end[o];
    }
  }
  return { report: JSON.parse(JSON.stringify(run.report)), gantt, request: prepared.request };
}

/** Typed arrays move to the page instead of being copied. */
function transferables(value: unknown, out: Transferable[] = [], depth = 0): Transferable[] {
  if (depth > 4 || value === null || typeof value !== 'object') return out;
  if (ArrayBuffer.isView(value)) {
    if (!out.includes(value.buffer)) out.push(value.buffer as ArrayBuffer);
    return out;
  }
  for (const v of Object.values(value)) transferables(v, out, depth + 1);
  return out;
}

async function answer(id: number, request: Request): Promise<void> {
  const post = (reply: Reply, transfer: Transferable[] = []): void => (self as unknown as Worker).postMessage(reply, transfer);
  let last = 0;
  const progress = (fraction: number, note: string): void => {
    const now = performance.now();
    if (now - last < 50 && fraction < 1) return;
    last = now;
    post({ id, type: 'progress', fraction, note });
  };
  try {
    const value = await handle(request, progress);
    // The topology's own arrays stay here (the cache uses them): copy those, move the rest.
    const copy = structuredClone(value);
    post({ id, type: 'result', value: copy }, transferables(copy));
  } catch (err) {
    if (err instanceof InputError) post({ id, type: 'error', message: `meshwork: error: ${err.message}`, input: true });
    else post({ id, type: 'error', message: `meshwork: internal error: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`, input: false });
  }
}

// Requests are answered in the order they came: an upload still loading its reader finishes before the next request reads the file.
let queue: Promise<void> = Promise.resolve();
self.onmessage = (event: MessageEvent<{ id: number; request: Request }>) => {
  const { id, request } = event.data;
  queue = queue.then(() => answer(id, request));
};
