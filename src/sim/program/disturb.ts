/**
 * Disturbances (seed 000 ¶0048, ¶0050: nodes that start late, messages delayed by software, OS
 * interruptions) as a transformation of a lowered program: each operation gets a delay, in seconds,
 * that its stream spends before starting it. Both engines run the disturbed program through the same
 * stream interpreter (semantics.ts), so they see the same disturbed workload.
 *
 * Distributions (every draw from one seeded xoshiro stream, in program order):
 * - start skew: per rank, Uniform[0, skew] before the first operation of each of its streams. Only a
 *   bound on the launch spread is known, and the uniform is the least-committal law on a bounded range.
 * - jitter: per send, Exponential with mean `jitter` before it is posted: software delays are mostly
 *   short with a tail (queueing behind other work), and the exponential is that law with one parameter.
 * - OS noise: before each operation, with probability `osProbability`, a detour of exactly `os`
 *   (a daemon or timer interrupt of fixed length), the fixed-length detour of noise-injection studies.
 *   Per operation rather than per unit of time because the transformation happens before any timing.
 * Every default is zero (no disturbance) except `osProbability` (0.01: one operation in a hundred
 * interrupted, so a detour of 10× an operation's α costs about 10 % on average) and `seed` (1).
 */
import { InputError } from '../../util/errors.js';
import { Rng } from '../../util/rng.js';
import { Spec } from '../../util/spec.js';
import { formatTime } from '../../util/units.js';
import { OpKind } from '../../collectives/types.js';
import type { FlowProgram } from './program.js';

export interface NoiseOptions {
  /** Bound of the per-rank start skew, seconds (Uniform[0, skew]). Default 0. */
  skew?: number;
  /** Mean of the per-send jitter, seconds (Exponential). Default 0. */
  jitter?: number;
  /** Length of one OS detour, seconds. Default 0. */
  os?: number;
  /** Probability that an operation is preceded by an OS detour. Default 0.01. */
  osProbability?: number;
  /** Seed of the draws. Default 1. */
  seed?: number;
}

/** The resolved disturbance, recorded in the result's model record (`noise`). */
export interface NoiseModel {
  readonly skew: number;
  readonly jitter: number;
  readonly os: number;
  readonly osProbability: number;
  readonly seed: number;
  readonly distributions: string;
}

const DISTRIBUTIONS =
  'skew: per rank Uniform[0, skew] before the first op of each stream; jitter: per send Exponential(mean jitter) before it is posted; os: before each op, with probability osProbability, a detour of exactly os';

export function resolveNoise(o: NoiseOptions): NoiseModel {
  const t = (field: string, v: number | undefined): number => {
    if (v === undefined) return 0;
    if (!(Number.isFinite(v) && v >= 0)) throw new InputError(`noise.${field}`, v, 'a non-negative time such as 10us');
    return v;
  };
  const p = o.osProbability ?? 0.01;
  if (!(p >= 0 && p <= 1)) throw new InputError('noise.osprob', p, 'a probability from 0 to 1');
  const seed = o.seed ?? 1;
  if (!(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32)) throw new InputError('noise.seed', seed, 'an integer from 0 to 4294967295');
  return { skew: t('skew', o.skew), jitter: t('jitter', o.jitter), os: t('os', o.os), osProbability: p, seed, distributions: DISTRIBUTIONS };
}

/** Parses `skew=10us,jitter=1us,os=20us,osprob=0.01,seed=3` (the CLI's `--noise`). */
export function parseNoise(text: string): NoiseModel {
  const spec = Spec.parse(`noise:${text}`, 'noise');
  if (spec.positional !== undefined) throw new InputError('noise', spec.positional, 'key=value items: skew, jitter, os, osprob, seed');
  const noise = resolveNoise({
    skew: spec.time('skew'),
    jitter: spec.time('jitter'),
    os: spec.time('os'),
    osProbability: spec.number('osprob', { min: 0, max: 1, default: 0.01 }),
    seed: spec.int('seed', { min: 0, max: 2 ** 32 - 1, default: 1 }),
  });
  spec.assertAllRead();
  return noise;
}

export function describeNoise(n: NoiseModel): string {
  const t = (x: number): string => (x === 0 ? '0' : formatTime(x));
  return `skew=${t(n.skew)}, jitter=${t(n.jitter)}, os=${t(n.os)} (p=${n.osProbability}), seed=${n.seed}`;
}

export function isQuiet(n: NoiseModel): boolean {
  return n.skew === 0 && n.jitter === 0 && (n.os === 0 || n.osProbability === 0);
}

/** The program with each operation's disturbance delay (seconds) added to any it already has. */
export function disturbProgram(program: FlowProgram, noise: NoiseModel): FlowProgram {
  const rng = new Rng(noise.seed);
  const rankSkew = new Float64Array(program.numRanks);
  if (noise.skew > 0) for (let r = 0; r < program.numRanks; r++) rankSkew[r] = noise.skew * rng.next();
  const delay = program.opDelay ? program.opDelay.slice() : new Float64Array(program.numOps);
  const osOn = noise.os > 0 && noise.osProbability > 0;
  for (let s = 0; s < program.numStreams; s++) {
    const first = program.opStart[s];
    const end = program.opStart[s + 1];
    if (end > first) delay[first] += rankSkew[program.streamRank[s]];
    for (let o = first; o < end; o++) {
      // 1 - U is in (0, 1]: its log is finite.
      if (noise.jitter > 0 && program.opKind[o] === OpKind.Send) delay[o] += -noise.jitter * Math.log(1 - rng.next());
      if (osOn && rng.next() < noise.osProbability) delay[o] += noise.os;
    }
  }
  return program.with({ opDelay: delay, noise });
}
