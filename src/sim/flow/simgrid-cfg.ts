/**
 * SimGrid's own configuration items (`smpirun --cfg=KEY:VALUE`, SimGrid 3.32) as flow-model options,
 * so a SimGrid user brings the settings of their runs as they wrote them (`--simgrid-cfg`).
 *
 * The items apply on top of a SimGrid preset the way smpirun applies them on top of its defaults:
 * `simgrid-smpi` is smpirun as it starts (network/model:SMPI, cross-traffic on), `simgrid` is
 * smpirun with `--cfg=network/model:CM02 --cfg=network/crosstraffic:0` (how its reference cases ran).
 * As in SimGrid, `network/model` sets the defaults of the other network items (latency and bandwidth
 * factors, weight-S: surf_network_model_init_*), and an item given explicitly wins over them whatever
 * its order. Under the SMPI model SimGrid reads smpi/lat-factor and smpi/bw-factor and ignores
 * network/latency-factor and network/bandwidth-factor (NetworkSmpiModel overrides the factor
 * lookups); under CM02 and LV08 the reverse. Such an item is accepted and named as having no effect,
 * as are the items that change no collective's timing here (tracing, memory folding, precision).
 * What Meshwork does not model is refused in one line naming the item.
 */
import { InputError } from '../../util/errors.js';
import { isDecimal } from '../../util/spec.js';
import type { FlowModelOptions } from '../program/model.js';
import { SIMGRID_CROSS_TRAFFIC, parseFactorText, type NetworkModelName } from '../program/network-model.js';
import { parseOverheadText } from '../program/software-overheads.js';

/** The presets a SimGrid configuration applies on top of, with the items each stands for. */
const PRESET_ITEMS: Readonly<Record<string, readonly string[]>> = {
  'simgrid-smpi': [],
  simgrid: ['network/model:CM02', 'network/crosstraffic:0'],
};

/** SimGrid's network/model values Meshwork models, by the name SimGrid takes. */
const MODELS: Readonly<Record<string, NetworkModelName>> = { CM02: 'cm02', LV08: 'lv08', SMPI: 'smpi' };

/** Items that change no timing Meshwork computes (each accepted and named). */
const NO_EFFECT = new Set([
  'smpi/simulate-computation', 'smpi/shared-malloc', 'smpi/shared-malloc-blocksize', 'smpi/shared-malloc-hugepage', 'smpi/shared-malloc-range',
  'smpi/display-timing', 'smpi/display-allocs', 'smpi/display-analysis', 'smpi/host-speed', 'smpi/cpu-threshold', 'smpi/privatization', 'smpi/keep-temps',
  'smpi/wtime', 'smpi/test', 'smpi/iprobe', 'smpi/iprobe-cpu-usage', 'smpi/init', 'smpi/finalization-barrier', 'smpi/pedantic', 'smpi/trace-call-location',
  'smpi/trace-call-use-absolute-path', 'smpi/list-leaks', 'smpi/barrier-collectives', 'smpi/errors-are-fatal', 'smpi/grow-injected-times',
  'network/optim', 'network/maxmin-selective-update', 'network/solver', 'maxmin/precision', 'maxmin/concurrency-limit', 'surf/precision',
  'cpu/model', 'cpu/optim', 'cpu/maxmin-selective-update', 'host/model', 'exception/cutpath', 'path', 'verbose-exit',
]);
const NO_EFFECT_PREFIXES = ['tracing', 'contexts/', 'precision/', 'debug/', 'model-check'];
const changesNoTiming = (key: string): boolean => NO_EFFECT.has(key) || NO_EFFECT_PREFIXES.some((p) => key.startsWith(p));

/**
 * How SimGrid updates its sharing: Meshwork re-shares every flow a change can move, as SimGrid's Full;
 * CM02's default Lazy can leave a link oversubscribed once a flow leaves its latency phase (docs/flow.md,
 * "SimGrid's lazy sharing update"), so there smpirun may be faster than Meshwork.
 */
const SHARING_UPDATE = new Set(['network/optim', 'network/maxmin-selective-update']);
const SHARING_UPDATE_NOTE = "Meshwork always shares as SimGrid's network/optim:Full does (CM02's default Lazy can oversubscribe a link when a flow leaves its latency phase)";

/** Collective-algorithm items: the algorithm is Meshwork's --algorithm (SMPI's names are accepted there). */
const COLLECTIVE_ITEMS = new Set(['smpi/coll-selector', 'smpi/allgather', 'smpi/allgatherv', 'smpi/allreduce', 'smpi/alltoall', 'smpi/alltoallv', 'smpi/barrier', 'smpi/bcast', 'smpi/gather', 'smpi/reduce', 'smpi/reduce-scatter', 'smpi/reduce_scatter', 'smpi/scatter']);

/** The factor item the other kind of model reads in its place. */
const FACTOR_COUNTERPART: Readonly<Record<string, string>> = {
  'network/latency-factor': 'smpi/lat-factor',
  'network/bandwidth-factor': 'smpi/bw-factor',
  'smpi/lat-factor': 'network/latency-factor',
  'smpi/bw-factor': 'network/bandwidth-factor',
};

export interface SimgridCfg {
  /** The model options the items set (explicit: they win over the preset's). */
  readonly model: FlowModelOptions;
  /** Items accepted with no effect on a timing here, each with the reason (for a note). */
  readonly noEffect: readonly string[];
}

const FIELD = 'simgrid-cfg';

/** One item's value as a number; refused in one line naming the item. */
function numberOf(key: string, value: string, accepted: string, ok: (v: number) => boolean): number {
  const v = isDecimal(value) ? Number(value) : NaN;
  if (!(Number.isFinite(v) && ok(v))) throw new InputError(`${FIELD}.${key}`, value, accepted);
  return v;
}

/** SimGrid's boolean spellings (xbt config: yes/no, on/off, true/false, 1/0). */
function booleanOf(key: string, value: string): boolean {
  const v = value.toLowerCase();
  if (['1', 'yes', 'on', 'true'].includes(v)) return true;
  if (['0', 'no', 'off', 'false'].includes(v)) return false;
  throw new InputError(`${FIELD}.${key}`, value, 'a boolean: 1/0, yes/no, on/off, true/false');
}

/** `KEY:VALUE` (a leading `--cfg=` as pasted from an smpirun line is dropped). */
function splitItem(item: string): [string, string] {
  const text = item.replace(/^--cfg=/, '');
  const colon = text.indexOf(':');
  if (colon <= 0) throw new InputError(FIELD, item, 'SimGrid configuration items KEY:VALUE, as smpirun --cfg=KEY:VALUE takes them (e.g. network/model:LV08)');
  return [text.slice(0, colon), text.slice(colon + 1)];
}

/**
 * The model options of SimGrid configuration items on top of `preset` (`simgrid` or `simgrid-smpi`):
 * `text` holds the items separated by white space.
 */
export function simgridCfgModel(text: string, preset: string | undefined): SimgridCfg {
  const base = preset === undefined ? undefined : PRESET_ITEMS[preset];
  if (base === undefined) throw new InputError(FIELD, text, `SimGrid configuration items with --preset ${Object.keys(PRESET_ITEMS).join(' or ')} (the SimGrid run they change; got ${preset === undefined ? 'no preset' : `--preset ${preset}`})`);
  const items = text.split(/\s+/).filter((t) => t.length > 0);
  if (items.length === 0) throw new InputError(FIELD, text, 'at least one SimGrid configuration item KEY:VALUE');
  const given = new Map<string, string>();
  const noEffect: string[] = [];
  for (const item of [...base, ...items]) {
    const [key, value] = splitItem(item);
    given.set(key, value);
  }
  const modelName = given.get('network/model') ?? 'SMPI';
  const network = MODELS[modelName];
  if (network === undefined) throw new InputError(`${FIELD}.network/model`, modelName, `${Object.keys(MODELS).join(', ')} (SimGrid's Constant, IB and ns-3 models are not modelled)`);
  const model: Record<string, unknown> = { networkModel: network, sharing: 'cm02' };
  const smpiFactors = network === 'smpi';
  for (const [key, value] of given) {
    switch (key) {
      case 'network/model':
        break;
      case 'network/latency-factor':
      case 'network/bandwidth-factor':
      case 'smpi/lat-factor':
      case 'smpi/bw-factor': {
        const ofSmpi = key.startsWith('smpi/');
        const field = key.endsWith('lat-factor') || key.endsWith('latency-factor') ? 'latencyFactor' : 'bandwidthFactor';
        if (ofSmpi !== smpiFactors) {
          noEffect.push(`${key}: SimGrid's ${modelName} model reads ${FACTOR_COUNTERPART[key]} instead`);
          break;
        }
        if (!ofSmpi) numberOf(key, value, 'a positive number', (v) => v > 0);
        parseFactorText(value, `${FIELD}.${key}`);
        model[field] = value;
        break;
      }
      case 'network/weight-S':
        model.weightS = numberOf(key, value, 'a number of bytes >= 0', (v) => v >= 0);
        break;
      case 'network/TCP-gamma':
        model.tcpGamma = numberOf(key, value, 'a number of bytes >= 0 (0: no bound)', (v) => v >= 0);
        break;
      case 'network/crosstraffic':
        model.crossTraffic = booleanOf(key, value) ? SIMGRID_CROSS_TRAFFIC : 0;
        break;
      case 'smpi/send-is-detached-thresh':
        model.eagerThreshold = numberOf(key, value, 'a whole number of bytes >= 0', (v) => Number.isSafeInteger(v) && v >= 0);
        break;
      case 'smpi/async-small-thresh':
        model.asyncSmallThreshold = numberOf(key, value, 'a whole number of bytes >= 0', (v) => Number.isSafeInteger(v) && v >= 0);
        break;
      case 'smpi/os':
      case 'smpi/or':
      case 'smpi/ois': {
        // SMPI's software overheads (program/software-overheads.ts), under the presets' protocol smpi.
        const field = ({ 'smpi/os': 'sendOverhead', 'smpi/ois': 'isendOverhead', 'smpi/or': 'recvOverhead' } as const)[key];
        parseOverheadText(value, `${FIELD}.${key}`);
        model[field] = value;
        break;
      }
      default:
        if (COLLECTIVE_ITEMS.has(key)) throw new InputError(`${FIELD}.${key}`, value, `nothing here: give the algorithm with --algorithm (SMPI's names and selectors are accepted, e.g. --algorithm ${value})`);
        if (changesNoTiming(key)) {
          if (!base.some((b) => b.startsWith(`${key}:`))) noEffect.push(`${key}: ${SHARING_UPDATE.has(key) ? SHARING_UPDATE_NOTE : 'changes no collective timing Meshwork computes'}`);
          break;
        }
        throw new InputError(FIELD, `${key}:${value}`, 'a SimGrid 3.32 configuration item Meshwork reads: network/model, network/latency-factor, network/bandwidth-factor, network/weight-S, network/TCP-gamma, network/crosstraffic, smpi/lat-factor, smpi/bw-factor, smpi/send-is-detached-thresh, smpi/async-small-thresh, smpi/os, smpi/or, smpi/ois (and items with no effect on timing, such as tracing)');
    }
  }
  // SimGrid's hosts default to cross-traffic on (host_clm03.cpp), whatever the network model.
  if (model.crossTraffic === undefined) model.crossTraffic = SIMGRID_CROSS_TRAFFIC;
  if ((model.crossTraffic as number) > 0) model.rateUpdate = 'full';
  return { model: model as FlowModelOptions, noEffect };
}

/**
 * A platform file's `<config>` properties, which SimGrid applies as smpirun's --cfg items: accepted
 * when none changes a timing Meshwork computes (tracing, precision, paths...), else refused, naming
 * the first that does and how to give it (a topology carries no model: --simgrid-cfg sets it).
 */
export function checkPlatformConfig(items: readonly string[], field: string): void {
  for (const item of items) {
    try {
      if (changesNoTiming(splitItem(item)[0])) continue;
      // Refuses what --simgrid-cfg would refuse, in its words.
      simgridCfgModel(item, 'simgrid');
    } catch (err) {
      if (err instanceof InputError) throw new InputError(`${field}.config`, item, err.accepted);
      throw err;
    }
    throw new InputError(`${field}.config`, item, `<config> properties that change no timing here (tracing, precision, paths); give this one as --simgrid-cfg ${item} (SimGrid applies a platform's <config> as smpirun's --cfg)`);
  }
}
