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
import { firstPacketOption, parsePacketOptions, type PacketCliOptions } from './packet-options.js';

/** Option values by CLI name (`eager-threshold`), as a sweep point holds them. */
export type OptionTexts = Readonly<Record<string, string | boolean | undefined>>;

const text = (o: OptionTexts, name: string): string | undefined => (typeof o[name] === 'string' ? (o[name] as string) : undefined);

export function runRequestFromOptions(o: OptionTexts): RunRequest {
  const topology = text(o, 'topology');
  if (topology === undefined) throw new InputError('topology', undefined, 'a topology spec or file such as torus:8x8 (required)');
  const engine = text(o, 'engine') ?? 'flow';
  if (engine !== 'flow' && engine !== 'packet') throw new InputError('engine', engine, 'flow or packet');
  const packetTexts: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(o)) if (typeof value === 'string') packetTexts[flagProperty(name)] = value;
  const packetOnly = engine === 'packet' ? undefined : firstPacketOption(packetTexts as PacketCliOptions);
  if (packetOnly) throw new InputError(packetOnly.flag, packetOnly.value, 'a packet-router option with --engine packet (the flow engine has no routers)');
  const config = parsePacketOptions(packetTexts as PacketCliOptions);
  const size = text(o, 'size');
  const schedule = text(o, 'schedule');
  const algorithm = text(o, 'algorithm');
  if (schedule !== undefined && algorithm !== undefined) throw new InputError('schedule', schedule, 'either --schedule or --algorithm, not both');
  const collective = text(o, 'collective') ?? 'alltoall';
  if (schedule === undefined && algorithm === undefined) throw new InputError('algorithm', undefined, 'an algorithm spec such as hop-grouped or pairwise (see meshwork collective list), or --schedule FILE');
  if (schedule === undefined && size === undefined && collective !== 'barrier') throw new InputError('size', undefined, 'a size such as 64KiB or 1MB (required)');
  const bytes = size === undefined ? undefined : parseSize(size, 'size');
  const modelTexts: Record<string, string | undefined> = {};
  for (const row of MODEL_OPTIONS) modelTexts[row.flag] = text(o, row.flag);
  const noiseText = text(o, 'noise');
  const noise = noiseText === undefined ? undefined : parseNoise(noiseText);
  const root = text(o, 'root');
  const peer = text(o, 'peer');
  const seed = text(o, 'seed');
  return {
    topology,
    ...(text(o, 'mapping') !== undefined ? { mapping: text(o, 'mapping') } : {}),
    ...(text(o, 'fail') !== undefined ? { fail: text(o, 'fail') } : {}),
    workload:
      schedule !== undefined
        ? { kind: 'schedule', file: schedule, ...(bytes !== undefined ? { size: bytes } : {}) }
        : { kind: 'collective', collective: collective as never, algorithm: algorithm!, size: bytes ?? 0, ...(root !== undefined ? { root: parseIntValue(root, 'root', { min: 0 }) } : {}), ...(peer !== undefined ? { peer: parseIntValue(peer, 'peer', { min: 0 }) } : {}) },
    engine,
    ...(text(o, 'preset') !== undefined ? { preset: text(o, 'preset') as never } : {}),
    model: modelOptionsFromText(modelTexts) as RunRequest['model'],
    routing: {
      ...(text(o, 'routing') !== undefined ? { name: text(o, 'routing') } : {}),
      ...(text(o, 'tie') !== undefined ? { tie: text(o, 'tie') as never } : {}),
      seed: parseIntValue(seed ?? '1', 'seed', { min: 0, max: 2 ** 32 - 1 }),
    },
    ...(Object.keys(config).length > 0 ? { packet: { config } } : {}),
    ...(o.barriers === true ? { barriers: true } : {}),
    ...(noise ? { noise: { skew: noise.skew, jitter: noise.jitter, os: noise.os, osProbability: noise.osProbability, seed: noise.seed } } : {}),
  };
}
