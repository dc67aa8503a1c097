/**
 * SimGrid's network-model corrections on top of its CM02 sharing (flow engine, model.networkModel):
 * 'ideal' has none; 'cm02' is SimGrid's plain CM02 model (--cfg=network/model:CM02) without
 * cross-traffic (as the reference cases ran it), whose only correction is the TCP-gamma bound
 * (network_cm02.cpp applies it whatever the model's factors: on a route of 2 ms at 1 GBps it cuts a
 * transfer's rate to about half); 'lv08' is SimGrid's LV08 model (--cfg=network/model:LV08, the
 * default of SimGrid outside smpirun: network/latency-factor 13.01, network/bandwidth-factor 0.97 for
 * every size, weight-S 20537, the TCP-gamma bound and cross-traffic, surf_network_model_init_LegrandVelho);
 * 'smpi' is SimGrid 3.32's `SMPI` network model, the one `smpirun` uses unless told otherwise
 * (smpirun sets --cfg=network/model:SMPI). Each term can be set on its own (FlowModelOptions
 * latencyFactor, bandwidthFactor, weightS, tcpGamma, crossTraffic; sim/flow/simgrid-cfg.ts reads
 * SimGrid's own --cfg names). Every value is SimGrid's default, read from its source at tag v3.32:
 *   - smpi/bw-factor and smpi/lat-factor (src/simgrid/sg_config.cpp), looked up by message size as
 *     NetworkSmpiModel::get_bandwidth_factor / get_latency_factor do (src/surf/network_smpi.cpp);
 *   - network/weight-S 8775 (surf_network_model_init_SMPI);
 *   - network/TCP-gamma 4,194,304 bytes (src/kernel/resource/NetworkModel.cpp);
 *   - network/crosstraffic on: each transfer also loads the links of the reverse route with 0.05 of
 *     its rate (NetworkCm02Model::comm_action_expand_constraints), its acknowledgements.
 * How network_cm02.cpp applies them to a transfer of `size` bytes (the MPI envelope included) over a
 * route of latency L: it waits L × lat_factor(size) holding no bandwidth, its sharing penalty is
 * L + Σ weight-S / link bandwidth (the unfactored L), its rate is bounded by TCP-gamma / (2 L), and
 * its bytes progress at bw_factor(size) × the bandwidth it holds on its links (Action::get_rate:
 * value × factor), which times it exactly as a flow of size / bw_factor bytes.
 */
import { InputError } from '../../util/errors.js';
import { isDecimal } from '../../util/spec.js';

export type NetworkModelName = 'ideal' | 'cm02' | 'lv08' | 'smpi';
export const NETWORK_MODELS: readonly NetworkModelName[] = ['ideal', 'cm02', 'lv08', 'smpi'];

/**
 * A piecewise factor by message size, as SimGrid parses one: (threshold, value) by increasing
 * threshold. A factor for every size (CM02's and LV08's network/latency-factor) is one value above
 * the threshold −1.
 */
export interface SizeFactors {
  readonly thresholds: readonly number[];
  readonly values: readonly number[];
}

/** The corrections a run's transfers get, recorded in the result (FlowModel). */
export interface NetworkCorrections {
  readonly networkModel: NetworkModelName;
  /** smpi/bw-factor; null: 1 for every size. */
  readonly bandwidthFactors: SizeFactors | null;
  /** smpi/lat-factor; null: 1 for every size. */
  readonly latencyFactors: SizeFactors | null;
  /** network/weight-S, bytes: a flow's CM02 sharing penalty adds weight-S / bandwidth per channel. */
  readonly weightS: number;
  /** network/TCP-gamma, bytes: a flow's rate is at most gamma / (2 × its route latency); null: no bound. */
  readonly tcpGamma: number | null;
  /** network/crosstraffic: the share of its rate a flow also takes on each channel of its reverse route (0: none). */
  readonly crossTraffic: number;
}

/** SimGrid 3.32's defaults, as written in src/simgrid/sg_config.cpp. */
export const SMPI_BW_FACTOR = '65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;1426:0.608902;732:0.341987;257:0.338112;0:0.812084';
export const SMPI_LAT_FACTOR = '65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;3484:1.88101;1426:1.61075;732:1.9503;257:1.95341;0:2.01467';
export const SMPI_WEIGHT_S = 8775;
export const SIMGRID_TCP_GAMMA = 4194304;
export const SIMGRID_CROSS_TRAFFIC = 0.05;
/** LV08's defaults (src/surf/network_cm02.cpp, surf_network_model_init_LegrandVelho). */
export const LV08_LATENCY_FACTOR = 13.01;
export const LV08_BANDWIDTH_FACTOR = 0.97;
export const LV08_WEIGHT_S = 20537;

/** One factor for every message size (network/latency-factor, network/bandwidth-factor). */
export function constantFactor(value: number): SizeFactors {
  return { thresholds: [-1], values: [value] };
}

/**
 * A factor option as a user writes it: one positive number for every size (CM02's and LV08's
 * network/latency-factor and network/bandwidth-factor), or SimGrid's piecewise syntax
 * `threshold:value;...` (smpi/lat-factor, smpi/bw-factor).
 */
export function parseFactorText(text: string, field: string): SizeFactors {
  const t = text.trim();
  if (!t.includes(':')) {
    const value = isDecimal(t) ? Number(t) : NaN;
    if (!(value > 0 && Number.isFinite(value))) throw new InputError(field, text, "a positive number (every size), or SimGrid's factor syntax threshold:value;...");
    return constantFactor(value);
  }
  return parseSizeFactors(t, field);
}

/** Parses SimGrid's factor syntax `threshold:value;...` (smpi::utils::parse_factor), sorted by threshold. */
export function parseSizeFactors(text: string, field: string): SizeFactors {
  const pairs = text
    .split(';')
    .filter((chunk) => chunk.length > 0)
    .map((chunk) => {
      const [t, v, ...rest] = chunk.split(':');
      const threshold = Number(t);
      const value = Number(v);
      if (rest.length > 0 || !Number.isSafeInteger(threshold) || threshold < 0 || !(value > 0 && Number.isFinite(value))) {
        throw new InputError(field, text, "SimGrid's factor syntax threshold:value;... (whole byte thresholds, positive values)");
      }
      return [threshold, value] as const;
    });
  if (pairs.length === 0) throw new InputError(field, text, "SimGrid's factor syntax threshold:value;...");
  pairs.sort((a, b) => a[0] - b[0]);
  return { thresholds: pairs.map((p) => p[0]), values: pairs.map((p) => p[1]) };
}

/**
 * The factor for a message of `size` bytes, SimGrid's loop exactly: 1 up to and including the first
 * threshold, then each value from just above its threshold up to and including the next one (so
 * under the defaults a 1,040-byte message, 1 KiB plus the envelope, takes 732's values).
 */
export function sizeFactor(factors: SizeFactors | null, size: number): number {
  if (factors === null) return 1;
  let current = 1;
  const { thresholds, values } = factors;
  for (let i = 0; i < thresholds.length; i++) {
    if (size <= thresholds[i]) return current;
    current = values[i];
  }
  return current;
}

const SMPI_CORRECTIONS: NetworkCorrections = {
  networkModel: 'smpi',
  bandwidthFactors: parseSizeFactors(SMPI_BW_FACTOR, 'smpi/bw-factor'),
  latencyFactors: parseSizeFactors(SMPI_LAT_FACTOR, 'smpi/lat-factor'),
  weightS: SMPI_WEIGHT_S,
  tcpGamma: SIMGRID_TCP_GAMMA,
  crossTraffic: SIMGRID_CROSS_TRAFFIC,
};

const IDEAL_CORRECTIONS: NetworkCorrections = {
  networkModel: 'ideal',
  bandwidthFactors: null,
  latencyFactors: null,
  weightS: 0,
  tcpGamma: null,
  crossTraffic: 0,
};

/** CM02 alone: no factors, weight-S 0 (network/weight-S is 0 under CM02), but the TCP-gamma bound. */
const CM02_CORRECTIONS: NetworkCorrections = { ...IDEAL_CORRECTIONS, networkModel: 'cm02', tcpGamma: SIMGRID_TCP_GAMMA };

/** LV08 as SimGrid defaults it, cross-traffic on (host model CLM03's default). */
const LV08_CORRECTIONS: NetworkCorrections = {
  networkModel: 'lv08',
  bandwidthFactors: constantFactor(LV08_BANDWIDTH_FACTOR),
  latencyFactors: constantFactor(LV08_LATENCY_FACTOR),
  weightS: LV08_WEIGHT_S,
  tcpGamma: SIMGRID_TCP_GAMMA,
  crossTraffic: SIMGRID_CROSS_TRAFFIC,
};

const CORRECTIONS: Readonly<Record<NetworkModelName, NetworkCorrections>> = { ideal: IDEAL_CORRECTIONS, cm02: CM02_CORRECTIONS, lv08: LV08_CORRECTIONS, smpi: SMPI_CORRECTIONS };

export function networkCorrections(name: NetworkModelName): NetworkCorrections {
  return CORRECTIONS[name];
}

/** The corrections in words, for a run's model record: only the terms that are on. */
export function describeCorrections(c: NetworkCorrections): string[] {
  const factor = (f: SizeFactors | null): string => (f === null ? '' : f.thresholds.length === 1 && f.thresholds[0] < 0 ? `× ${f.values[0]}` : 'by size');
  return [
    ...(c.latencyFactors ? [`latency ${factor(c.latencyFactors)}`] : []),
    ...(c.bandwidthFactors ? [`bytes at the rate ${factor(c.bandwidthFactors)}`] : []),
    ...(c.weightS > 0 ? [`weight-S ${c.weightS} / bandwidth per channel in the share`] : []),
    ...(c.tcpGamma !== null ? [`rate ≤ TCP-gamma ${c.tcpGamma} B / (2 × route latency)`] : []),
    ...(c.crossTraffic > 0 ? [`cross-traffic of ${c.crossTraffic} on the reverse route`] : []),
  ];
}
