/**
 * `meshwork run`'s options (CLI names, human units) → a RunRequest: the parser every front end that
 * speaks in CLI options uses (the sweep's run points; docs/architecture.md "RunRequest"). Model
 * options go through the option schema (sim/options-schema.ts), packet options through
 * packet-options.ts, and the library's prepare() does every other check.
 */
import { InputError } from '../util/errors.js';
import { parseSize } from '../util/units.js';
import { parseIntValue } from '../util/spec.js';
import { flagProperty, MODEL_OPTIONS, modelOptionsFromText } from '../sim/options-schema.js';
import { parseNoise } from '../sim/program/disturb.js';
import type { RunRequest } from '../sim/request.js';
import type { FlowModelOptions } from '../sim/program/model.js';
import { flowPreset } from '../sim/flow/presets.js';
import { simgridCfgModel } from '../sim/flow/simgrid-cfg.js';
import { parseCollective } from '../collectives/types.js';
import { routingNames } from '../routing/registry.js';
import { TORUS_TIE_BREAKS } from '../routing/dimension-order.js';
import { checkScheduleFormat } from '../interop/schedule-formats.js';
import { firstPacketOption, parsePacketOptions, type PacketCliOptions } from './packet-options.js';

/** Option values by CLI name (`eager-threshold`), as a sweep point holds them. */
export type OptionTexts = Readonly<Record<string, string | boolean | undefined>>;

const text = (o: OptionTexts, name: string): string | undefined => (typeof o[name] === 'string' ? (o[name] as string) : undefined);

/** Commander's option values under their CLI names (`eager-threshold`), as runRequestFromOptions reads them. */
export function optionTexts(opts: object): OptionTexts {
  return Object.fromEntries(Object.entries(opts).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), v as string | boolean | undefined]));
}

/**
 * `notes` collects what the user should read beside the result: the --simgrid-cfg items accepted
 * with no effect here.
 */
export function runRequestFromOptions(o: OptionTexts, notes: string[] = []): RunRequest {
  const topology = text(o, 'topology');
  if (topology === undefined) throw new InputError('topology', undefined, 'a topology spec or file such as torus:8x8 (required)');
  const schedule = text(o, 'schedule');
  const algorithm = text(o, 'algorithm');
  const collective = schedule === undefined ? parseCollective(text(o, 'collective') ?? 'alltoall') : undefined;
  const size = text(o, 'size');
  const sizes = text(o, 'sizes');
  if (sizes !== undefined && collective !== 'alltoallv') throw new InputError('sizes', sizes, 'sizes only with --collective alltoallv');
  if (collective === 'alltoallv' && sizes === undefined) throw new InputError('sizes', undefined, 'per-pair sizes for alltoallv: uniform:size=B, random:max=B[,min=0,seed=1], diagonal:size=B, or a file of n x n byte counts');
  if (collective === 'alltoallv' && size !== undefined) throw new InputError('size', size, 'no --size with alltoallv (--sizes gives every block)');
  if (collective !== undefined && collective !== 'barrier' && collective !== 'alltoallv' && size === undefined) throw new InputError('size', undefined, 'a size such as 64KiB or 1MB (required)');
  if (collective === 'barrier' && size !== undefined) throw new InputError('size', size, 'nothing with --collective barrier (it moves no data)');
  const bytes = size === undefined ? undefined : parseSize(size, 'size');
  if (bytes !== undefined && !Number.isSafeInteger(bytes)) throw new InputError('size', size, 'a whole number of bytes');
  const root = text(o, 'root');
  const peer = text(o, 'peer');
  const routing = text(o, 'routing');
  if (routing !== undefined && !routingNames().includes(routing)) throw new InputError('routing', routing, routingNames().join(', '));
  const tie = text(o, 'tie');
  if (tie !== undefined && !(TORUS_TIE_BREAKS as readonly string[]).includes(tie)) throw new InputError('tie', tie, TORUS_TIE_BREAKS.join(', '));
  const seed = parseIntValue(text(o, 'seed') ?? '1', 'seed', { min: 0, max: 2 ** 32 - 1 });
  const presetName = text(o, 'preset');
  const preset = presetName === undefined ? undefined : flowPreset(presetName);
  const modelTexts: Record<string, string | undefined> = {};
  for (const row of MODEL_OPTIONS) modelTexts[row.flag] = text(o, row.flag);
  // SimGrid's own --cfg items lie between the preset and the options given (those win, as over the preset).
  const cfgText = text(o, 'simgrid-cfg');
  const cfg = cfgText === undefined ? undefined : simgridCfgModel(cfgText, presetName);
  for (const item of cfg?.noEffect ?? []) notes.push(`--simgrid-cfg ${item}`);
  const model: FlowModelOptions = { ...cfg?.model, ...modelOptionsFromText(modelTexts) };
  checkLatencyRule({ ...preset?.model, ...model }, o);
  if (algorithm === undefined && schedule === undefined) throw new InputError('algorithm', undefined, 'an algorithm spec such as hop-grouped or pairwise (see meshwork collective list), or --schedule FILE');
  if (schedule !== undefined && algorithm !== undefined) throw new InputError('schedule', schedule, 'either --schedule or --algorithm, not both');
  const engine = text(o, 'engine') ?? 'flow';
  if (engine !== 'flow' && engine !== 'packet') throw new InputError('engine', engine, 'flow or packet');
  const packetTexts: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(o)) if (typeof value === 'string') packetTexts[flagProperty(name)] = value;
  const config = parsePacketOptions(packetTexts as PacketCliOptions);
  const packetOnly = engine === 'packet' ? undefined : firstPacketOption(packetTexts as PacketCliOptions);
  if (packetOnly) throw new InputError(packetOnly.flag, packetOnly.value, 'a packet-router option with --engine packet (the flow engine has no routers)');
  const format = checkScheduleFormat(text(o, 'schedule-format'), schedule);
  const noiseText = text(o, 'noise');
  const noise = noiseText === undefined ? undefined : parseNoise(noiseText);
  return {
    topology,
    ...(text(o, 'mapping') !== undefined ? { mapping: text(o, 'mapping') } : {}),
    ...(text(o, 'fail') !== undefined ? { fail: text(o, 'fail') } : {}),
    workload:
      schedule !== undefined
        ? { kind: 'schedule', file: schedule, ...(format !== undefined ? { format } : {}), ...(bytes !== undefined ? { size: bytes } : {}) }
        : {
            kind: 'collective',
            collective: collective!,
            algorithm: algorithm!,
            ...(sizes !== undefined ? { sizes } : { size: bytes ?? 0 }),
            ...(root !== undefined ? { root: parseIntValue(root, 'root', { min: 0 }) } : {}),
            ...(peer !== undefined ? { peer: parseIntValue(peer, 'peer', { min: 0 }) } : {}),
          },
    engine,
    ...(presetName !== undefined ? { preset: presetName as never } : {}),
    ...(Object.keys(model).length > 0 ? { model: model as RunRequest['model'] } : {}),
    routing: { ...(routing !== undefined ? { name: routing } : {}), ...(tie !== undefined ? { tie: tie as never } : {}), seed },
    ...(Object.keys(config).length > 0 ? { packet: { config } } : {}),
    ...(o.barriers === true ? { barriers: true } : {}),
    ...(noise ? { noise: { skew: noise.skew, jitter: noise.jitter, os: noise.os, osProbability: noise.osProbability, seed: noise.seed } } : {}),
  };
}

/** SimGrid's latency rule needs shared injection; refused naming the option the user typed (the model would name its field). */
function checkLatencyRule(model: FlowModelOptions, o: OptionTexts): void {
  if (model.latencyRule !== 'before-transfer' || model.injectionOrder === 'shared') return;
  const latency = text(o, 'latency');
  const from = latency === undefined ? `--preset ${text(o, 'preset')}` : '--latency before-transfer';
  const order = text(o, 'injection-order');
  if (order !== undefined) throw new InputError('injection-order', order, `shared with ${from} (SimGrid's latency rule; its sends share the NIC), or any order with --latency on-delivery`);
  throw new InputError('latency', latency, 'on-delivery, or before-transfer with --injection-order shared (SimGrid, whose sends share the NIC)');
}
