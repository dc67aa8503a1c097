/**
 * BookSim 2.0 configuration files (`booksim config.cfg`): the parser and the translation into a
 * Meshwork traffic run.
 *
 * Grammar (BookSim's config.l / config.y, followed token for token): `key = value;` commands;
 * `//` comments to the end of the line; a value is an integer, a float (with optional exponent) or a
 * string, where a string is a name (`[A-Za-z_\-/.][A-Za-z0-9_\-/.+(){},]*`) or a braced list
 * (`{0.1,0.2}`, nested braces allowed). As in flex, the longest token wins and ties go to the earlier
 * rule (so `-1` is a number and `-` a string). Hand-written: no parsing library implements this
 * grammar, and a general parser generator would be a new dependency larger than the three rules.
 *
 * Translation: every key Meshwork can honour maps onto the `booksim` preset's options; any other key,
 * or a value Meshwork cannot reproduce, is refused with one InputError naming it. Keys left out take
 * BookSim's defaults (booksim_config.cpp), not Meshwork's: e.g. `num_vcs` 16 and
 * `injection_rate_uses_flits` 0.
 */
import { InputError, requireText } from '../../util/errors.js';
import { maxOf } from '../../util/arrays.js';
/** A routing registry name (routing/registry.ts). */
type RoutingName = string;
import type { MeasurementOptions } from './measure.js';
import type { BatchOptions } from './batch.js';
import { MAX_INTERNAL_SPEEDUP, type PacketConfig } from './config.js';
import { bookSimNames, byBookSimName } from './allocators/index.js';
import { BOOKSIM_KEY_KINDS, BOOKSIM_KIND_NAMES } from './booksim-keys.js';
import type { RateUnit } from './traffic-run.js';
import { meanPacketSize, type OnOffParams, type PacketSizeMix } from '../traffic/sources.js';

export type BookSimValue = number | string;

export interface BookSimEntry {
  key: string;
  value: BookSimValue;
  line: number;
  /** The value's token: BookSim assigns an `int` only to an integer key, a `float` to a double one. */
  kind: 'int' | 'float' | 'str';
}

const TOKEN_RULES: ReadonlyArray<[kind: 'str' | 'int' | 'float', re: RegExp]> = [
  ['int', /-?[0-9]+/y],
  ['float', /-?[0-9]*\.[0-9]+/y],
  ['float', /-?([0-9]*\.)?[0-9]+[eE][+-]?[0-9]+/y],
  ['str', /[A-Za-z_\-/.][A-Za-z0-9_\-/.+(){},]*/y],
];

interface Token {
  kind: 'str' | 'int' | 'float' | 'char';
  text: string;
  line: number;
}

/** A braced value `{...}` with nested braces, or -1 if the text at `at` is not one. */
function bracedEnd(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const ch = text[i];
    if (ch === '{') depth++;
    else if (ch === '}') {
      if (--depth === 0) return i + 1;
    } else if (!/[A-Za-z0-9_\-.(),]/.test(ch)) return -1;
  }
  return -1;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\n') {
      line++;
      i++;
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\r') {
      i++;
      continue;
    }
    if (text.startsWith('//', i)) {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    let best: Token | null = null;
    if (ch === '{') {
      const end = bracedEnd(text, i);
      if (end > 0) best = { kind: 'str', text: text.slice(i, end), line };
    }
    for (const [kind, re] of TOKEN_RULES) {
      re.lastIndex = i;
      const m = re.exec(text);
      if (m && (!best || m[0].length > best.text.length)) best = { kind, text: m[0], line };
    }
    best ??= { kind: 'char', text: ch, line };
    tokens.push(best);
    i += best.text.length;
  }
  return tokens;
}

/** Parses a BookSim configuration into its commands, in file order (a later one overrides). */
export function parseBookSimConfig(text: string): BookSimEntry[] {
  const tokens = tokenize(requireText(text, 'booksim-config', 'the text of a BookSim configuration file'));
  const entries: BookSimEntry[] = [];
  for (let k = 0; k < tokens.length; k += 4) {
    const [key, eq, value, semi] = [tokens[k], tokens[k + 1], tokens[k + 2], tokens[k + 3]];
    const at = (t: Token | undefined): string => `booksim-config line ${(t ?? tokens[tokens.length - 1]).line}`;
    if (key.kind !== 'str') throw new InputError(at(key), key.text, 'key = value; (a key is a name)');
    if (eq?.text !== '=') throw new InputError(at(eq), eq?.text ?? '(end of file)', `"=" after ${key.text}`);
    if (!value || value.kind === 'char') throw new InputError(at(value), value?.text ?? '(end of file)', `a number or name as the value of ${key.text}`);
    if (semi?.text !== ';') throw new InputError(at(semi), semi?.text ?? '(end of file)', `";" after ${key.text} = ${value.text}`);
    entries.push({ key: key.text, value: value.kind === 'str' ? value.text : Number(value.text), line: key.line, kind: value.kind });
  }
  return entries;
}

/** What a BookSim configuration asks for, as Meshwork options (run with the `booksim` preset). */
export interface BookSimRun {
  topologySpec: string;
  pattern: string;
  /** The configuration's injection rate(s), in flits/node/cycle. */
  rates: number[];
  /** The same rates as the file writes them, in `rateUnit`. */
  fileRates: number[];
  /**
   * What the file's rates count: `packets` per node per cycle (`injection_rate_uses_flits = 0`,
   * BookSim's default) or `flits`. Rates given with `--rates` beside the file mean the same unit.
   */
  rateUnit: RateUnit;
  /** `injection_process = on_off` parameters (burst_alpha, burst_beta, burst_r1), or undefined for Bernoulli. */
  onOff: OnOffParams | undefined;
  /** Packets of several sizes (`packet_size = {{1,8}}` with `packet_size_rate`), or undefined when one size. */
  packetSizes: PacketSizeMix | undefined;
  /** Options of the pattern (`hotspot({h})`: every packet to h), or undefined. */
  patternOptions: BookSimPatternOptions | undefined;
  /** VCs per routing class: 1 on dragonflynew (BookSim's `out_vc = ph`), else undefined (all VCs). */
  vcsPerClass: number | undefined;
  /** One line per key the file sets that BookSim's chosen router ignores but Meshwork would not. */
  warnings: string[];
  config: Partial<PacketConfig>;
  measurementOptions: Partial<MeasurementOptions>;
  /**
   * `sim_type = batch`: BookSim's BatchTrafficManager (`batch_size`, `batch_count`,
   * `max_outstanding_requests`), run with measurement 'batch'; undefined for latency and throughput.
   */
  batch: BatchOptions | undefined;
  routing: RoutingName;
  /** The routing to name in the run where the `booksim` preset would choose another (ugal), else undefined. */
  routingName: RoutingName | undefined;
  /** Every key of the file with its value, for the result record. */
  keys: Record<string, BookSimValue>;
}

const PATTERNS = ['uniform', 'bitrev', 'bitcomp', 'transpose', 'shuffle', 'tornado', 'neighbor', 'randperm', 'diagonal', 'asymmetric', 'taper64', 'bad_dragon', 'badperm_yarc', 'background'];
/** BookSim's pattern names that Meshwork spells differently. */
const PATTERN_NAME: Readonly<Record<string, string>> = { bad_dragon: 'bad-dragon', badperm_yarc: 'badperm-yarc' };

/** The pattern options a BookSim traffic value sets (PatternOptions, sim/traffic/patterns.ts). */
interface BookSimPatternOptions {
  hotRank?: number;
  hotRanks?: number[];
  hotWeights?: number[];
  hotFraction?: number;
  digits?: { k: number; n: number; xr: number };
  permSeed?: number;
  permutation?: 'booksim';
  exclude?: number[];
}

/**
 * BookSim's tokenize_str (config_utils.cpp): a value not starting with `{` is one element, whole
 * (so `8,2,1` is one parameter); `{a,{b,c}}` is split at its top-level commas.
 */
function tokenizeStr(data: string): string[] {
  if (data === '') return [];
  if (!data.startsWith('{')) return [data];
  const values: string[] = [];
  let start = 1;
  let nested = 0;
  for (let i = 1; i < data.length; i++) {
    const ch = data[i];
    if (ch === '{') nested++;
    else if (ch === '}' && nested > 0) nested--;
    else if ((ch === ',' || ch === '}') && nested === 0) {
      if (i > start) values.push(data.slice(start, i));
      start = i + 1;
    }
  }
  return values;
}

/** C's atoi: the leading integer, 0 if none. */
const atoi = (text: string): number => Number(/^\s*[+-]?\d+/.exec(text)?.[0] ?? 0);

/** BookSim's tokenize_int: a `{...}` list's top-level elements, or one element, each read by atoi. */
const tokenizeInt = (data: string): number[] => (data.startsWith('{') ? tokenizeStr(data).map(atoi) : data === '' ? [] : [atoi(data)]);

/**
 * `packet_size` and `packet_size_rate` as BookSim's TrafficManager reads them: one integer, or a list
 * per traffic class of size lists (`{{1,8}}`: class 0 sends 1- and 8-flit packets); the lists are cut
 * to the one class Meshwork runs, so `{1,8}` means 1-flit packets (8 would be class 1's). The weights
 * are one integer for every size or a per-class list, its last value repeated for missing sizes.
 */
function bookSimPacketSizes(sizeValue: BookSimValue, rateValue: BookSimValue): PacketSizeMix {
  const sizes = typeof sizeValue === 'number' ? [sizeValue] : tokenizeInt(tokenizeStr(sizeValue)[0] ?? '');
  if (sizes.length === 0 || !sizes.every((x) => Number.isInteger(x) && x >= 1 && x <= 1 << 16)) {
    refuse('packet_size', sizeValue, 'an integer in [1, 65536], or a list of them per class ({{1,8}}: 1- and 8-flit packets)');
  }
  const listed = typeof rateValue === 'number' ? [rateValue] : tokenizeInt(tokenizeStr(rateValue)[0] ?? '');
  const weights = sizes.map((_, i) => listed[Math.min(i, listed.length - 1)]);
  if (listed.length === 0 || !weights.every((w) => Number.isInteger(w) && w >= 0 && w <= 1 << 20) || !weights.some((w) => w > 0)) {
    refuse('packet_size_rate', rateValue, 'integer weights in [0, 2^20], one or a list per class, not all 0 (BookSim asserts rate >= 0)');
  }
  return { sizes, weights };
}

/**
 * BookSim's `traffic` value (traffic.cpp TrafficPattern::New): a name, or `name(params)` with the
 * parameters read by tokenize_str. Accepted: the plain names above; `tornado`, `neighbor` and
 * `badperm_yarc` with parameters k, n, xr (absent ones from the file's keys, as BookSim reads them):
 * digits of radix xr·k, so long as every destination is a terminal (on flatfly and cmesh xr is the
 * tile width, so every terminal moves; note `tornado(8,2,1)` is one parameter "8,2,1", read as k = 8,
 * as BookSim's atoi does; `tornado({8,2,1})` is three); `bad_dragon` with k (groups of 2k·k
 * terminals); `hotspot(h)` / `hotspot({h1,h2},{w1,w2})` (every packet to a hot node, drawn by weight;
 * a weight list shorter than the nodes repeats its last); `background({e1,e2})` (uniform over the
 * nodes not listed). Anything else is refused with the reason.
 */
function bookSimTraffic(
  value: BookSimValue,
  k: number,
  n: number,
  xr: number,
  nodes: number,
  permSeedKey: () => BookSimValue,
): { pattern: string } & BookSimPatternOptions {
  const text = String(value);
  const left = text.indexOf('(');
  const name = left < 0 ? text : text.slice(0, left);
  const right = text.lastIndexOf(')');
  const params = left < 0 ? [] : tokenizeStr(text.slice(left + 1, right < 0 ? undefined : right));
  const accepted = `${PATTERNS.join(' | ')} | tornado(k,n,xr) | neighbor(k,n,xr) | badperm_yarc(k,n,xr) | bad_dragon(k) | hotspot({nodes},{weights}) | background({nodes}) | randperm(seed)`;
  const digitsOf = (): { k: number; n: number; xr: number } => ({
    k: params[0] === undefined ? k : atoi(params[0]),
    n: params[1] === undefined ? n : atoi(params[1]),
    xr: params[2] === undefined ? xr : atoi(params[2]),
  });
  const nodeList = (list: string | undefined, what: string): number[] => {
    const ids = tokenizeStr(list ?? '').map(atoi);
    if (ids.length === 0 || ids.some((h) => h < 0 || h >= nodes)) {
      refuse('traffic', value, `${what} nodes in [0, ${Math.min(nodes, 1 << 30) - 1}] (-1, a node BookSim draws at random, is not modelled: name the node)`);
    }
    return ids;
  };
  if (name === 'tornado' || name === 'neighbor') {
    const digits = digitsOf();
    // BookSim does not check that its destinations exist; Meshwork refuses those that do not.
    if (!(digits.k >= 2 && digits.n >= 1 && digits.xr >= 1 && (digits.xr * digits.k) ** digits.n <= nodes)) {
      refuse('traffic', value, `${name} with k >= 2, n >= 1, xr >= 1 and (xr·k)^n <= ${nodes}, the terminals (got k = ${digits.k}, n = ${digits.n}, xr = ${digits.xr}: BookSim would send to terminals that do not exist)`);
    }
    return { pattern: name, digits };
  }
  if (name === 'badperm_yarc' || name === 'bad_dragon') {
    // Checked where the pattern is built (sim/traffic/patterns.ts), against the network's terminals.
    return { pattern: PATTERN_NAME[name], digits: digitsOf() };
  }
  if (name === 'hotspot') {
    const hot = nodeList(params[0] ?? '-1', 'hotspot with');
    // BookSim: rates.resize(hotspots.size(), rates.back()); no rates, 1 each.
    const given = params[1] === undefined ? [] : tokenizeStr(params[1]).map(atoi);
    const weights = hot.map((_, i) => given[Math.min(i, given.length - 1)] ?? 1);
    if (weights.some((w) => w < 1)) refuse('traffic', value, 'hotspot weights of at least 1 (BookSim asserts rate > 0)');
    return hot.length === 1 ? { pattern: 'hotspot', hotRank: hot[0], hotFraction: 1 } : { pattern: 'hotspot', hotRanks: hot, hotWeights: weights, hotFraction: 1 };
  }
  if (name === 'background') {
    if (params[0] === undefined) refuse('traffic', value, 'background({nodes}): the nodes no packet is sent to (BookSim reads a first parameter)');
    const exclude = nodeList(params[0], 'background excluding');
    if (new Set(exclude).size >= nodes) refuse('traffic', value, 'background excluding fewer than every node (BookSim would draw forever)');
    return { pattern: 'background', exclude };
  }
  if (name === 'randperm') {
    // BookSim's permutation depends on perm_seed alone (traffic.cpp: randperm(s) or the perm_seed
    // key, default 0; RandomSeed(perm_seed) before the draw, the run's state restored after).
    const permSeed = params.length > 0 ? atoi(params[0]) : permSeedKey();
    if (typeof permSeed !== 'number' || !Number.isInteger(permSeed) || permSeed < 0 || permSeed > 2 ** 31 - 1) {
      refuse(params.length > 0 ? 'traffic' : 'perm_seed', params.length > 0 ? value : permSeed, 'a non-negative integer permutation seed (BookSim "time" is not reproducible: give the seed)');
    }
    return { pattern: name, permSeed };
  }
  if (left >= 0 || !PATTERNS.includes(name)) refuse('traffic', value, `${accepted} (${text} is not modelled)`);
  return { pattern: name };
}

/**
 * A vc_allocator or sw_allocator value (allocator.cpp Allocator::NewAllocator): a name, or
 * `name(param)`: iSLIP's, PIM's or select's iterations (`islip(2)`, `pim(2)`), a separable allocator's arbiter type
 * (`separable_input_first(round_robin)`; others are not modelled).
 */
function bookSimAllocator(key: string, value: BookSimValue): { name: string; iterations: number } {
  const text = String(value);
  const left = text.indexOf('(');
  const name = left < 0 ? text : text.slice(0, left);
  const names = bookSimNames('allocator');
  if (!names.includes(name)) refuse(key, value, names.join(' | '));
  if (left < 0) return { name, iterations: 1 };
  const right = text.lastIndexOf(')');
  const param = text.slice(left + 1, right < left ? undefined : right);
  if (name === 'islip' || name === 'pim' || name === 'select') {
    // `islip()`: an empty parameter is the configuration's, which the iq router never passes: 1.
    const iterations = param === '' ? 1 : atoi(param);
    if (!(iterations >= 1 && iterations <= 64)) refuse(key, value, `${name}(N) with N iterations in [1, 64]`);
    return { name, iterations };
  }
  if (param !== '' && param !== 'round_robin') refuse(key, value, `${name} or ${name}(round_robin) (other arbiter types are not modelled)`);
  return { name, iterations: 1 };
}

/** Keys accepted only at the one value Meshwork models (BookSim's default unless noted). */
const FIXED: Readonly<Record<string, BookSimValue>> = {
  router: 'iq',
  subnets: 1,
  classes: 1,
  speculative: 0,
  noq: 0,
  sim_count: 1,
  buffer_policy: 'private',
  use_read_write: 0,
  link_failures: 0,
  sim_power: 0,
  measure_stats: 1,
  output_buffer_size: -1,
};

/**
 * Keys BookSim reads only under another setting: on_off injection's parameters, and batch mode's
 * (read when sim_type = batch; max_outstanding_requests also under use_read_write = 1, refused).
 */
const READ_ONLY_UNDER = new Set([
  ...['burst_alpha', 'burst_beta', 'burst_r1', 'batch_size', 'batch_count', 'max_outstanding_requests', 'perm_seed'],
  // Speculative switch allocation's (iq_router.cpp, only under speculative = 1, refused), and the
  // link-failure seed (kncube.cpp, only under link_failures > 0, refused).
  ...['spec_sw_allocator', 'spec_check_elig', 'spec_check_cred', 'spec_mask_by_reqs', 'fail_seed'],
]);

/**
 * Keys with no effect on simulated results: debug and report output (the watch lists, the *_out
 * files, pair statistics); the power model's inputs, read only under sim_power = 1 (refused);
 * shared-buffer tuning, read only under a buffer_policy other than private (refused); class_priority
 * with one class; and keys BookSim declares but never reads (flit_timing, in_ports, out_ports,
 * reorder, split_packets, channel_file, watch_transactions, output_delay).
 */
const NO_EFFECT = new Set([
  ...['watch_out', 'watch_file', 'watch_flits', 'watch_packets', 'watch_transactions', 'print_activity', 'print_csv_results', 'viewer_trace', 'deadlock_warn_timeout', 'stats_out', 'pair_stats'],
  ...['active_packets_out', 'ejected_flits_out', 'free_credits_out', 'injected_flits_out', 'max_credits_out', 'outstanding_credits_out', 'received_flits_out', 'sent_flits_out', 'sent_packets_out', 'stored_flits_out', 'used_credits_out'],
  ...['channel_width', 'wire_length', 'tech_file', 'power_output_file', 'channel_sweep'],
  ...['feedback_aging_scale', 'feedback_offset', 'max_held_slots', 'private_bufs', 'private_buf_size', 'private_buf_start_vc', 'private_buf_end_vc', 'class_priority'],
  ...['flit_timing', 'in_ports', 'out_ports', 'reorder', 'split_packets', 'channel_file', 'output_delay'],
]);

/**
 * Sizes and VC ranges of read/write request and reply packets: BookSim reads them only under
 * `use_read_write = 1` (refused above), so at 0 they change nothing (examples/flatflyconfig sets them).
 */
const READ_WRITE_ONLY = new Set([
  ...['read_request', 'write_request', 'read_reply', 'write_reply'].flatMap((kind) => [`${kind}_size`, `${kind}_begin_vc`, `${kind}_end_vc`, `${kind}_subnet`]),
  // The coin that makes a request a write (trafficmanager.cpp _IssuePacket) is tossed only under use_read_write.
  'write_fraction',
]);

const ROUTINGS: Readonly<Record<string, Readonly<Record<string, RoutingName>>>> = {
  // min_adapt: candidates per hop taken in VC allocation (routing/min-adapt.ts); dim_order_bal: Cray's partition VC sets.
  torus: { dim_order: 'dor', dim_order_bal: 'dor-bal', min_adapt: 'min-adapt' },
  mesh: { dim_order: 'dor', dor: 'dor', romm: 'romm', valiant: 'valiant-dor', xy_yx: 'xy-yx', adaptive_xy_yx: 'adaptive-xy-yx', planar_adapt: 'planar-adapt', min_adapt: 'min-adapt' },
  // anca: two random up-ports, the one with fewer credits in use (routing/up-down.ts ancaRouting).
  fattree: { nca: 'nca', anca: 'anca' },
  dragonflynew: { min: 'group-direct', ugal: 'ugal-booksim' },
  // ran_min_flatfly is dimension order, lowest dimension first (flatfly_outport): shortest path with
  // the lowest-port tie on a HyperX.
  // xyyx / adaptive_xyyx: XY or YX per packet, by a coin or by credits at the source router; valiant:
  // dimension order via a random router (routing/flatfly.ts).
  flatfly: { ran_min: 'shortest', ugal: 'ugal-flatfly', xyyx: 'xyyx-flatfly', adaptive_xyyx: 'adaptive-xyyx-flatfly', valiant: 'valiant-flatfly' },
  // BookSim's names are routing_function + "_cmesh" (cmesh.cpp RegisterRoutingFunctions).
  cmesh: { dor: 'cmesh-dor', dor_no_express: 'cmesh-dor-no-express', xy_yx: 'cmesh-xy-yx', xy_yx_no_express: 'cmesh-xy-yx-no-express' },
  // routefunc.cpp dest_tag_fly: the one path of a butterfly (routing/fly.ts).
  fly: { dest_tag: 'fly-dest-tag' },
  // anynet.cpp registers min_anynet: a routing table from each router's Dijkstra (routing/anynet-min.ts).
  anynet: { min: 'anynet-min' },
};

/** Routings the `booksim` preset would not choose by itself, so the run must name them. */
const NAMED_ROUTINGS = new Set<RoutingName>(['min-adapt', 'dor-bal', 'anynet-min', 'ugal-booksim', 'ugal-flatfly', 'xyyx-flatfly', 'adaptive-xyyx-flatfly', 'valiant-flatfly', 'anca', 'romm', 'valiant-dor', 'xy-yx', 'adaptive-xy-yx', 'planar-adapt', 'cmesh-dor-no-express', 'cmesh-xy-yx', 'cmesh-xy-yx-no-express']);

/** BookSim routing functions Meshwork does not model, each with the reason (routefunc.cpp, @ 28f43299). */
const REFUSED_ROUTINGS: Readonly<Record<string, string>> = {
  min_adapt: 'minimal adaptive with an escape VC (Meshwork models min_adapt_mesh and min_adapt_torus only)',
  chaos: 'needs router = chaos',
  dim_order_ni: 'one VC per destination (dim_order_ni, for noq / non-interfering networks): not modelled',
  dim_order_pni: 'VCs partitioned by destination (dim_order_pni): not modelled',
  romm_ni: 'ROMM with a VC per destination (romm_ni_mesh): not modelled',
  dim_order_bal: 'balanced dimension order (Meshwork models dim_order_bal_torus only)',
  valiant_ni: 'Valiant with a VC per destination (valiant_ni_torus): not modelled',
  valiant:
    "valiant on this topology (Meshwork models valiant_mesh and valiant_flatfly only; BookSim's valiant_torus fails its own assertion ring_part == 1, routefunc.cpp:1391, as a packet continues in a dimension)",
};

function refuse(key: string, value: BookSimValue, accepted: string): never {
  throw new InputError(`booksim-config: ${key}`, value, accepted);
}

/**
 * BookSim's anynet: the network file read as BookSim reads it (`anynet:PATH,model=booksim`, every
 * router a router, latencies per direction; interop/anynet.ts), the path as given (BookSim opens it
 * from its working directory). Its node ids are Meshwork's ranks, so the patterns that read only
 * the node count (bitcomp, bitrev, transpose, shuffle: a power of two; randperm; hotspot) run as in
 * BookSim; tornado and neighbor read the digits of the file's k and n (BookSim's defaults 8 and 2),
 * which an anynet network's node ids do not follow.
 */
function anynetSpec(file: BookSimValue, traffic: BookSimValue | undefined): string {
  if (typeof file !== 'string' || file === '') refuse('network_file', file, 'the path of an anynet file (BookSim exits with "No network file name provided")');
  if (/,/.test(file)) refuse('network_file', file, 'a path without commas (Meshwork topology specs separate options with them)');
  const name = String(traffic ?? 'uniform').replace(/\(.*$/s, '');
  if (name === 'tornado' || name === 'neighbor') {
    refuse('traffic', traffic ?? 'uniform', "uniform, bitcomp, bitrev, transpose, shuffle, randperm or hotspot with anynet (tornado and neighbor compute destinations from the digits of k and n, BookSim's 8 and 2 unless set, which an anynet network's node ids do not follow)");
  }
  return `anynet:${file},model=booksim`;
}

/**
 * BookSim's flatfly: k^n routers, c terminals each, and the router tiles' layout keys x, y, xr, yr
 * with BookSim's own assertions (x = y, xr = yr, c = xr·yr). With c > 1 its terminal ids run across
 * the chip's tiles (flatfly_transformation), so the network is numbered the same way
 * (`numbering=tiles`, topology/hyperx.ts) and every traffic pattern names BookSim's terminals; with
 * c = 1 the two numberings are one.
 */
function flatflySpec(k: number, n: number, int: (key: string, fallback: number, min: number, max: number) => number): string {
  if (n > 4) refuse('n', n, 'an integer in [1, 4] (BookSim flatfly builds at most 4 dimensions)');
  const c = int('c', 1, 1, 1 << 12);
  const x = int('x', 8, 1, 1 << 12);
  if (int('y', 8, 1, 1 << 12) !== x) refuse('y', x, `x (${x}; BookSim asserts x = y)`);
  const xr = int('xr', 1, 1, 1 << 12);
  if (int('yr', 1, 1, 1 << 12) !== xr) refuse('yr', xr, `xr (${xr}; BookSim asserts xr = yr)`);
  if (c !== xr * xr) refuse('c', c, `xr·yr = ${xr * xr} (BookSim asserts it)`);
  // BookSim places terminal ids past the last router when x does not divide the routers (whole rows of tiles).
  if (c > 1 && k ** n % x !== 0) refuse('x', x, `a divisor of the ${k ** n} routers with c > 1 (BookSim's terminal ids fill whole rows of x tiles; otherwise some name routers that do not exist)`);
  const layout = c > 1 ? `,x=${x},xr=${xr},yr=${xr},numbering=tiles` : '';
  // use_noc_latency = 0: every channel 1 cycle (config.channelLatency, set by bookSimRun).
  if (int('use_noc_latency', 1, 0, 1) === 0) return `flatfly:k=${k},n=${n},c=${c}${layout}`;
  // use_noc_latency = 1 (BookSim's default): every channel its on-chip wire length (topology/hyperx.ts).
  // BookSim's client-to-router channels grow beyond 1 cycle from xr = 4 (flatfly_onchip.cpp ileng).
  if (xr > 3) refuse('xr', xr, 'at most 3 with use_noc_latency = 1 (BookSim gives injection channels of wider tiles more than 1 cycle, per client: not modelled)');
  return `flatfly:k=${k},n=${n},c=${c},x=${x},xr=${xr},yr=${xr}${c > 1 ? ',numbering=tiles' : ''}`;
}

/**
 * BookSim's cmesh (cmesh.cpp _ComputeSize) with its assertions: n = 2, c = 4, x = y, xr = yr,
 * c = xr·yr (so xr = yr = 2); k even and at least 4, where its edge routers pair up K/2 apart
 * (topology/cmesh.ts). Its terminal ids are Meshwork's ranks, so BookSim's bit patterns name the
 * same terminals, and tornado and neighbor read xr = 2 as BookSim does: digits of radix 2k.
 */
function cmeshSpec(k: number, n: number, int: (key: string, fallback: number, min: number, max: number) => number): string {
  if (n !== 2) refuse('n', n, '2 with cmesh (BookSim asserts n <= 2 and builds four mesh ports per router)');
  if (k < 4 || k % 2 !== 0) refuse('k', k, "an even integer of at least 4 with cmesh (BookSim pairs edge routers k/2 apart; at k = 2 its express channels duplicate mesh links, at odd k they collide)");
  const c = int('c', 1, 1, 1 << 12);
  if (c !== 4) refuse('c', c, '4 with cmesh (BookSim asserts c == 4)');
  const x = int('x', 8, 1, 1 << 12);
  const y = int('y', 8, 1, 1 << 12);
  if (y !== x) refuse('y', y, `x (${x}; BookSim asserts x = y)`);
  const xr = int('xr', 1, 1, 1 << 12);
  const yr = int('yr', 1, 1, 1 << 12);
  if (yr !== xr) refuse('yr', yr, `xr (${xr}; BookSim asserts xr = yr)`);
  if (xr * yr !== c) refuse('xr', xr, `2 with cmesh (BookSim asserts c = xr·yr = 4)`);
  return `cmesh:k=${k}`;
}

const KIND_EXAMPLES = { int: 'an integer such as 4', float: 'a number with a decimal point such as 1000000.0', str: 'a name or a {...} list' } as const;

/**
 * Refuses what BookSim's own parser refuses, with its message: a key booksim_config.cpp does not
 * declare, or a value whose token kind the key does not take (`warmup_thres = 1000000;` is an
 * integer token for a double key: BookSim stops with "Unknown integer field: warmup_thres").
 */
function checkBookSimKinds(entries: readonly BookSimEntry[]): void {
  for (const e of entries) {
    const kinds = Object.hasOwn(BOOKSIM_KEY_KINDS, e.key) ? BOOKSIM_KEY_KINDS[e.key].split(',') : [];
    if (kinds.includes(e.kind)) continue;
    const reason = `BookSim stops with "Unknown ${BOOKSIM_KIND_NAMES[e.kind]} field: ${e.key}"`;
    const accepted = kinds.length === 0 ? `a key BookSim 2.0 declares (${reason})` : `${kinds.map((k) => KIND_EXAMPLES[k as keyof typeof KIND_EXAMPLES]).join(' or ')} (${reason})`;
    throw new InputError(`booksim-config line ${e.line}: ${e.key}`, e.value, accepted);
  }
}

/** Translates parsed BookSim commands into a Meshwork run, refusing what Meshwork cannot honour. */
export function bookSimRun(entries: readonly BookSimEntry[]): BookSimRun {
  checkBookSimKinds(entries);
  const warnings: string[] = [];
  const keys: Record<string, BookSimValue> = {};
  for (const e of entries) keys[e.key] = e.value;
  const used = new Set<string>();
  const get = (key: string, fallback: BookSimValue): BookSimValue => {
    used.add(key);
    return keys[key] ?? fallback;
  };
  /** An integer key in [min, max]; `why` is BookSim's reason for the range, named in the refusal. */
  const int = (key: string, fallback: number, min: number, max: number, why?: string): number => {
    const v = get(key, fallback);
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) refuse(key, v, `${min === max ? String(min) : `an integer in [${min}, ${max}]`}${why ? ` (${why})` : ''}`);
    return v;
  };
  const num = (key: string, fallback: number, min: number, max: number): number => {
    const v = get(key, fallback);
    if (typeof v !== 'number' || !(v >= min && v <= max)) refuse(key, v, `a number in [${min}, ${max}]`);
    return v;
  };
  const oneOf = (key: string, fallback: string, accepted: readonly string[]): string => {
    const v = get(key, fallback);
    if (typeof v !== 'string' || !accepted.includes(v)) refuse(key, v, accepted.join(' | '));
    return v;
  };

  const topology = oneOf('topology', 'torus', Object.keys(ROUTINGS));
  const k = int('k', 8, 2, 1 << 12);
  const n = int('n', 2, 1, 8);
  let topologySpec: string;
  // BookSim's KNCube at k = 2 keeps both directions: two parallel channels each way between the pair.
  if (topology === 'torus' && k === 2) refuse('k', k, "at least 3 with torus (BookSim's k = 2 torus has two parallel channels each way between neighbours, one per direction; Meshwork's torus:2 has one; mesh k = 2 is the same network with one)");
  if (topology === 'torus' || topology === 'mesh') topologySpec = `${topology}:${Array.from({ length: n }, () => k).join('x')}`;
  else if (topology === 'fattree') topologySpec = `fattree:k=${k},levels=${n}`;
  else if (topology === 'flatfly') topologySpec = flatflySpec(k, n, int);
  else if (topology === 'cmesh') topologySpec = cmeshSpec(k, n, int);
  else if (topology === 'fly') topologySpec = `fly:k=${k},n=${n}`;
  else if (topology === 'anynet') topologySpec = anynetSpec(get('network_file', ''), keys.traffic);
  else {
    if (n !== 1) refuse('n', n, '1 (dragonflynew supports one dimension inside a group)');
    topologySpec = `dragonfly:h=${k},wiring=booksim`;
  }
  if (topology !== 'flatfly' && topology !== 'cmesh' && get('c', 1) !== 1) refuse('c', keys.c, "1 (Meshwork models BookSim's c = 1 only, except on flatfly and cmesh)");
  const routingValue = get('routing_function', 'none');
  if (typeof routingValue === 'string' && !Object.hasOwn(ROUTINGS[topology], routingValue) && Object.hasOwn(REFUSED_ROUTINGS, routingValue)) {
    refuse('routing_function', routingValue, `${Object.keys(ROUTINGS[topology]).join(' | ')} with ${topology} (${routingValue}: ${REFUSED_ROUTINGS[routingValue]})`);
  }
  const routingFunction = oneOf('routing_function', 'none', Object.keys(ROUTINGS[topology]));
  const routing = ROUTINGS[topology][routingFunction];

  const config: Partial<PacketConfig> = {};
  config.vcs = int('num_vcs', 16, 1, 64);
  // BookSim's dragonflynew routings use exactly VCs 0..classes-1 on channels, one VC per phase
  // (out_vc = ph); `min` draws its injection VC from all num_vcs, `ugal` asserts num_vcs = 3.
  if (topology === 'dragonflynew' && routing === 'ugal-booksim' && config.vcs !== 3) refuse('num_vcs', config.vcs, '3 with dragonflynew ugal routing (BookSim asserts gNumVCs == 3)');
  if (routing === 'min-adapt' && topology === 'torus' && config.vcs < 4) refuse('num_vcs', config.vcs, 'at least 4 with torus min_adapt (min_adapt_torus routes adaptive packets on VC 3)');
  if (topology === 'dragonflynew' && config.vcs < 2) refuse('num_vcs', config.vcs, 'at least 2 with dragonflynew min routing (its phases use VCs 0 and 1)');
  const vcsPerClass = topology === 'dragonflynew' ? 1 : undefined;
  // buf_size > 0 under the private buffer policy (the one modelled): each VC buf_size / num_vcs
  // flits, whatever vc_buf_size says (buffer_state.cpp PrivateBufferPolicy); otherwise vc_buf_size.
  const bufSize = int('buf_size', -1, -(2 ** 31), 1 << 22);
  const vcBufSize = int('vc_buf_size', 8, 1, 1 << 16);
  if (bufSize > 0 && Math.floor(bufSize / config.vcs) < 1) refuse('buf_size', bufSize, `at least num_vcs (${config.vcs}) flits: BookSim asserts a VC its share, buf_size / num_vcs > 0`);
  config.vcBuf = bufSize > 0 ? Math.floor(bufSize / config.vcs) : vcBufSize;
  if (config.vcBuf > 1 << 16) refuse('buf_size', bufSize, `at most ${2 ** 16} flits per VC (buf_size / num_vcs)`);
  const packetSizes = bookSimPacketSizes(get('packet_size', 1), get('packet_size_rate', 1));
  config.packetSize = maxOf(packetSizes.sizes);
  // BookSim reads vct only in its event-driven router (event_router.cpp); the iq router, the one
  // Meshwork models (router = iq), runs wormhole whatever vct says, so Meshwork does too.
  config.switching = 'wormhole';
  if (int('vct', 0, 0, 1) === 1) warnings.push("booksim-config: vct = 1 has no effect with router = iq (BookSim reads vct only in router = event): run as wormhole, as BookSim does");
  config.routingDelay = int('routing_delay', 1, 0, 1000);
  // Lookahead routing (routing_delay = 0): BookSim's source computes the first router's route as it
  // sends the head flit (trafficmanager.cpp _Step, "Generating lookahead routing info"), so an
  // adaptive routing reads that router's credits then, not at a route stage it does not have.
  if (config.routingDelay === 0) config.adaptiveDecision = 'injection';
  // BookSim 2.0's iq router runs these two at 1 only: 0 is an error in its constructor, and above 1
  // its evaluate loops assert on the requests queued that cycle (iq_router.cpp, `time >= 0`).
  config.vcAllocDelay = int('vc_alloc_delay', 1, 1, 1, 'BookSim 2.0 stops on 0 with "VC allocator cannot have zero delay." and on more with Assertion `time >= 0\' failed in IQRouter::_VCAllocEvaluate');
  config.swAllocDelay = int('sw_alloc_delay', 1, 1, 1, 'BookSim 2.0 stops on 0 with "Switch allocator cannot have zero delay." and on more with Assertion `time >= 0\' failed in IQRouter::_SWAllocEvaluate');
  // BookSim's crossbar delay is st_prepare_delay + st_final_delay (router.cpp _crossbar_delay), and
  // nothing reads either alone.
  config.stDelay = int('st_prepare_delay', 0, 0, 1000) + int('st_final_delay', 1, 0, 1000);
  config.internalSpeedup = num('internal_speedup', 1, 1, MAX_INTERNAL_SPEEDUP);
  const outputSpeedup = int('output_speedup', 1, 1, 16);
  if (outputSpeedup !== 1) config.outputSpeedup = outputSpeedup;
  // input_speedup S: VC v of each input port feeds crossbar input v mod S (iq_router.cpp
  // expanded_input); beyond num_vcs the extra crossbar inputs would have no VC. Lookahead routing
  // (routing_delay = 0) takes it too: BookSim's expanded inputs do not depend on the routing stage,
  // and examples/mesh88_lat (lookahead, input_speedup = 2) is within 3 % of BookSim as seed means.
  const inputSpeedup = int('input_speedup', 1, 1, config.vcs);
  if (inputSpeedup !== 1) config.inputSpeedup = inputSpeedup;
  config.creditDelay = int('credit_delay', 0, 0, 1000);
  const busyWhenFull = int('vc_busy_when_full', 0, 0, 1) === 1;
  if (int('vc_prioritize_empty', 0, 0, 1) === 1) config.vcPrioritizeEmpty = true;
  if (int('vc_shuffle_requests', 0, 0, 1) === 1) config.vcShuffleRequests = true;
  if (int('vc_priority_donation', 0, 0, 1) === 1) config.vcPriorityDonation = true;
  // wait_for_tail_credit = 1 implies a credit too: an empty VC has them all.
  config.vcAllocCheck = int('wait_for_tail_credit', 0, 0, 1) === 1 ? 'empty' : busyWhenFull ? 'free-with-credit' : 'free';
  const nocLatency = int('use_noc_latency', 1, 0, 1) === 1;
  if (!nocLatency && (topology === 'torus' || topology === 'flatfly' || topology === 'cmesh')) config.channelLatency = 1;
  // Allocators and arbiters by their BookSim names, from the registries.
  // BookSim's iq router builds its allocators without the configuration (IQRouter passes none to
  // Allocator::NewAllocator), so alloc_iters and arb_type never reach them: iSLIP runs 1 iteration
  // unless written islip(N), a separable allocator's arbiters are round-robin unless written
  // separable_input_first(ARB). Both keys are read and have no effect, as in BookSim.
  const vcAllocator = bookSimAllocator('vc_allocator', get('vc_allocator', 'islip'));
  const swAllocator = bookSimAllocator('sw_allocator', get('sw_allocator', 'islip'));
  config.allocator = byBookSimName('allocator', vcAllocator.name);
  if (swAllocator.name !== vcAllocator.name) config.swAllocator = byBookSimName('allocator', swAllocator.name);
  config.allocIters = vcAllocator.iterations;
  if (swAllocator.iterations !== vcAllocator.iterations) config.swAllocIters = swAllocator.iterations;
  const allocIters = int('alloc_iters', 1, 1, 64);
  if (allocIters !== 1) warnings.push(`booksim-config: alloc_iters = ${allocIters} has no effect with router = iq (BookSim builds its allocators without the configuration: one iSLIP iteration; write islip(${allocIters}) for ${allocIters}): run as BookSim does`);
  const arbType = get('arb_type', 'round_robin');
  if (arbType !== 'round_robin') warnings.push(`booksim-config: arb_type = ${String(arbType)} has no effect with router = iq (BookSim builds its allocators without the configuration: round-robin arbiters): run as BookSim does`);
  // `class` gives every packet its class's priority (class_priority, 0): with one class, every packet
  // the same, as `none` does.
  const priority = oneOf('priority', 'none', ['none', 'class', ...bookSimNames('arbiter').filter((n) => n !== 'round_robin')]);
  const byAge = priority !== 'none' && priority !== 'class';
  // BookSim's wavefront sweeps one level per distinct request priority (age: one per packet age); Meshwork's sweeps one.
  for (const [key, alloc] of [['vc_allocator', vcAllocator], ['sw_allocator', swAllocator]] as const) {
    if (byAge && alloc.name.endsWith('wavefront')) refuse(key, alloc.name, `islip or a separable allocator with priority = ${priority} (a wavefront sweep by packet priority is not modelled)`);
    if (byAge && alloc.name === 'select') refuse(key, alloc.name, `islip or a separable allocator with priority = ${priority} (select's inputs accepting by packet priority is not modelled)`);
  }
  config.arbitration = byAge ? byBookSimName('arbiter', priority) : 'round-robin';
  const seed = get('seed', 0);
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0) refuse('seed', seed, 'a non-negative integer (BookSim "time" is not reproducible)');
  config.seed = seed;

  const terminals = topology === 'torus' || topology === 'mesh' || topology === 'fattree' || topology === 'fly' ? k ** n : topology === 'cmesh' ? 4 * k * k : topology === 'flatfly' ? k ** n * (get('c', 1) as number) : topology === 'dragonflynew' ? 2 * k * k * (2 * k * k + 1) : Number.MAX_SAFE_INTEGER;
  // xr is read by the digit patterns (traffic.cpp: config->GetInt("xr")), and x, y, xr, yr by flatfly
  // and cmesh alone (checked there): on another network they have no other effect, as in BookSim.
  if (topology !== 'flatfly' && topology !== 'cmesh') for (const key of ['x', 'y', 'yr']) used.add(key);
  const xrKey = get('xr', 1);
  if (typeof xrKey !== 'number' || !Number.isInteger(xrKey)) refuse('xr', xrKey, 'an integer');
  const traffic = bookSimTraffic(get('traffic', 'uniform'), k, n, xrKey, terminals, () => get('perm_seed', 0));
  const pattern = traffic.pattern;
  // injection_process: bernoulli, or on_off with burst_alpha/burst_beta/burst_r1 (or on_off(a,b,r1)
  // parameters, read as BookSim's tokenize_str and atof do: on_off({0.1,0.2,-1.0})).
  const process = String(get('injection_process', 'bernoulli'));
  const processName = process.includes('(') ? process.slice(0, process.indexOf('(')) : process;
  let onOff: OnOffParams | undefined;
  if (processName === 'on_off') {
    const params = tokenizeStr(process.includes('(') ? process.slice(process.indexOf('(') + 1, process.lastIndexOf(')') < 0 ? undefined : process.lastIndexOf(')')) : '');
    if (params.length > 3) refuse('injection_process', process, 'on_off with at most 3 parameters (alpha, beta, r1; a per-node initial state list is not modelled)');
    const param = (i: number, key: string, fallback: number): number => (params[i] !== undefined ? Number.parseFloat(params[i]) || 0 : num(key, fallback, -1e6, 1));
    onOff = { alpha: param(0, 'burst_alpha', 0.5), beta: param(1, 'burst_beta', 0.5), r1: param(2, 'burst_r1', -1) };
    const negative = [onOff.alpha, onOff.beta, onOff.r1].filter((x) => x < 0).length;
    if (negative !== 1) refuse('injection_process', process, `on_off with exactly one of alpha, beta, r1 negative (got ${onOff.alpha}, ${onOff.beta}, ${onOff.r1}: BookSim stops with "Invalid parameters for injection process")`);
  } else if (process !== 'bernoulli') {
    refuse('injection_process', process, 'bernoulli | on_off');
  }
  const { pattern: _pattern, ...trafficOptions } = traffic;
  const patternOptions: BookSimPatternOptions | undefined =
    Object.keys(trafficOptions).length === 0 ? undefined : { ...trafficOptions, ...(traffic.permSeed !== undefined ? { permutation: 'booksim' as const } : {}) };
  const perFlit = int('injection_rate_uses_flits', 0, 0, 1) === 1;
  const simType = get('sim_type', 'latency');
  if (simType !== 'latency' && simType !== 'throughput' && simType !== 'batch') refuse('sim_type', simType, 'latency | throughput | batch');
  const batchMode = simType === 'batch';
  // A list `{0.1,0.2}` is one run per rate, as BookSim's vector-valued injection_rate.
  const rawRate = get('injection_rate', 0.1);
  const rates = typeof rawRate === 'number' ? [rawRate] : rawRate.replace(/^\{|\}$/g, '').split(',').map(Number);
  const packetSize = meanPacketSize(packetSizes);
  // Meshwork's rates are flits/node/cycle; BookSim's default is packets/node/cycle.
  const flitRates = rates.map((r) => (perFlit ? r : r * packetSize));
  for (let i = 0; i < rates.length; i++) {
    // Batch mode injects without the injection process, so the rate only has to be one a run takes.
    if (batchMode && !(rates[i] > 0 && rates[i] <= 1)) refuse('injection_rate', rawRate, `a rate in (0, 1] with sim_type = batch (batch mode does not read it: every node sends as fast as its source queue drains)`);
    if (!batchMode && !(flitRates[i] > 0 && flitRates[i] <= 1)) refuse('injection_rate', rawRate, `rates in (0, 1] flits/node/cycle (${perFlit ? 'flits' : `packets of ${packetSize} flits${packetSizes.sizes.length > 1 ? ' on average' : ''}`} per node per cycle here)`);
  }

  // BookSim's batch mode (BatchTrafficManager) reads these three; the other modes do not (READ_ONLY_UNDER).
  const batch: BatchOptions | undefined = batchMode
    ? { size: int('batch_size', 1000, 1, 1e8), count: int('batch_count', 1, 1, 1e6), maxOutstanding: Math.max(0, int('max_outstanding_requests', 0, -1e8, 1e8)) }
    : undefined;
  // Negative thresholds switch a check off, as in BookSim (`thres >= 0.0 && ...`).
  const measurementOptions: Partial<MeasurementOptions> = {
    warmupPeriods: int('warmup_periods', 3, 0, 1000),
    samplePeriod: int('sample_period', 1000, 1, 1e7),
    maxSamples: int('max_samples', 10, 1, 1e6),
    latencyThreshold: num('latency_thres', 500, -1e12, 1e12),
    warmupThreshold: num('warmup_thres', 0.05, -1e6, 1e6),
    stoppingThreshold: num('stopping_thres', 0.05, -1e6, 1e6),
    accWarmupThreshold: num('acc_warmup_thres', 0.05, -1e6, 1e6),
    accStoppingThreshold: num('acc_stopping_thres', 0.05, -1e6, 1e6),
    simType: batchMode ? undefined : simType,
  };
  // include_queuing = 0: packets stamped when generated, not when due (trafficmanager.cpp _Inject).
  const includeQueuing = int('include_queuing', 1, 0, 1) === 1;
  if (!includeQueuing) measurementOptions.includeQueuing = false;

  // Holding the crossbar for a packet changes nothing when every packet is one flit (BookSim's own
  // fat-tree example sets it with packet_size = 1), so that case is honoured, not refused.
  // Holding the crossbar for a packet (iq_router.cpp _SWHoldUpdate); with one-flit packets it never holds.
  const holdSwitch = int('hold_switch_for_packet', 0, 0, 1);
  if (holdSwitch === 1 && config.packetSize > 1) {
    if (config.internalSpeedup !== 1 || config.inputSpeedup !== undefined || config.outputSpeedup !== undefined) {
      refuse('hold_switch_for_packet', holdSwitch, '0 with internal_speedup, input_speedup or output_speedup above 1 (held connections are modelled at speedup 1 only), or 1 without them')
    }
    config.holdSwitchForPacket = true;
  }
  for (const [key, value] of Object.entries(FIXED)) {
    const v = get(key, value);
    if (v !== value) refuse(key, v, `${value} (Meshwork models BookSim's ${key} = ${value} only)`);
  }
  for (const key of Object.keys(keys)) {
    if (used.has(key) || NO_EFFECT.has(key) || READ_WRITE_ONLY.has(key) || READ_ONLY_UNDER.has(key)) continue;
    refuse(key, keys[key], 'a key Meshwork honours (see docs/packet.md, "BookSim configuration files")');
  }
  const routingName = NAMED_ROUTINGS.has(routing) ? routing : undefined;
  // Batch mode never asks the injection process (batchtrafficmanager.cpp _IssuePacket): on/off has no effect there.
  return { topologySpec, pattern, rates: flitRates, fileRates: rates, rateUnit: perFlit ? 'flits' : 'packets', onOff: batchMode ? undefined : onOff, packetSizes: packetSizes.sizes.length > 1 ? packetSizes : undefined, patternOptions, vcsPerClass, warnings, config, measurementOptions: batchMode ? (includeQueuing ? {} : { includeQueuing }) : measurementOptions, batch, routing, routingName, keys };
}
