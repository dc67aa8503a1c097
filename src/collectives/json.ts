/**
 * Schedule JSON: written as a stream of chunks (a 33.5 M-op schedule never exists as one string),
 * read back with checks that name the offending field. Format (schemas/schedule.schema.json):
 *
 *   { "format": "meshwork-schedule", "version": 1, "algorithm", "algorithmSpec", "topology", "mapping"?,
 *     "ranks", "streams", "dtype", "op", "inPlace",
 *     "parts": [{ "collective", "ranks": [..], "size", "root", "peer" }],
 *     "buffers": [{ "name", "bytes" }]        (send, recv, then temporaries; bytes for temporaries)
 *     "regions": [ [[buffer, offset, length], ...] | { "strided": [buffer, offset, length, stride, count] } ],
 *     "groups": [ [[rank, stream], ...] ],
 *     "hints": [{ "kind": "direct" | "via" | "path", "nodes": [..] }],
 *     "programs": [{ "rank", "stream", "ops": [op, ...] }] }
 *
 * Ops: ["send", to | [to, ...], region, tag, hint?], ["recv", from, region, tag], ["copy", src, dst],
 * ["reduce", op, src, dst], ["barrier", group], ["pace", gap], ["hw", kind, op, region, group, result?],
 * ["isend", to, region, tag, hint?], ["irecv", from, region, tag], ["waitall"], ["wait", k] (non-blocking
 * posting; k is the index, in this program's op list, of the isend or irecv it waits for),
 * ["separate-send", to, region, tag] (an MPI_Send the recv after it does not pair with:
 * ScheduleBuilder.separateSend; SMPI charges it smpi/os, not a sendrecv's smpi/ois).
 */
import { InputError } from '../util/errors.js';
import { MAX_STREAMS, Schedule, ScheduleBuilder } from './schedule.js';
import { COLLECTIVES, CollectiveKind, DTYPES, Dtype, HINT_KINDS, HW_KINDS, HwKind, HintKind, OpKind, REDUCE_OPS, ReduceOp } from './types.js';

export const SCHEDULE_FORMAT = 'meshwork-schedule';
export const SCHEDULE_VERSION = 1;

export interface ScheduleJsonOptions {
  /**
   * The rank mapping the schedule was built under (`random:seed=3`, or a permutation file's absolute
   * path): its route hints name mapped nodes, so `run --schedule` without --topology applies it again.
   */
  readonly mapping?: string;
}

/** Yields the schedule's JSON text in chunks (one per program, or per 4,096 ops). */
export function* scheduleJsonChunks(s: Schedule, opts: ScheduleJsonOptions = {}): Generator<string> {
  const header = {
    format: SCHEDULE_FORMAT,
    version: SCHEDULE_VERSION,
    algorithm: s.algorithm,
    algorithmSpec: s.algorithmSpec,
    topology: s.topology,
    ...(opts.mapping === undefined ? {} : { mapping: opts.mapping }),
    ranks: s.numRanks,
    streams: s.streams,
    dtype: s.dtype,
    op: s.op,
    inPlace: s.inPlace,
    parts: s.parts.map((p) => ({ collective: p.collective, ranks: Array.from(p.ranks), size: p.size, root: p.root, peer: p.peer, ...(p.sizes ? { sizes: Array.from(p.sizes) } : {}) })),
    buffers: s.buffers,
  };
  const head = JSON.stringify(header);
  yield `${head.slice(0, -1)},\n"regions":[`;
  for (let r = 0; r < s.numRegions; r++) {
    const st = s.regStart[r];
    const head = `${s.extBuf[st]},${s.extOff[st]},${s.extLen[st]}`;
    const text =
      s.regInner[r] > 1
        ? `{"strided":[${head},${s.regInnerStride[r]},${s.regInner[r]},${s.regStride[r]},${s.regRepeat[r]}]}`
        : s.regRepeat[r] > 1 || s.regStride[r] !== 0
          ? `{"strided":[${head},${s.regStride[r]},${s.regRepeat[r]}]}`
          : `[${Array.from({ length: s.regCount[r] }, (_, i) => `[${s.extBuf[st + i]},${s.extOff[st + i]},${s.extLen[st + i]}]`).join(',')}]`;
    yield r === 0 ? text : `,${text}`;
  }
  yield '],\n"groups":[';
  for (let g = 0; g < s.numGroups; g++) {
    const members = s.groupParticipants(g).map((m) => `[${m.rank},${m.stream}]`);
    yield `${g ? ',' : ''}[${members.join(',')}]`;
  }
  yield '],\n"hints":[';
  for (let h = 0; h < s.numHints; h++) yield `${h ? ',' : ''}${JSON.stringify(s.hint(h))}`;
  yield '],\n"programs":[';
  const { start, order } = s.programs();
  // Index of each op in its program (for ["wait", k]), built only if a schedule waits for one request.
  let position: Int32Array | undefined;
  for (let op = 0; op < s.numOps && !position; op++) {
    if (s.opKind[op] !== OpKind.Wait || s.waitTarget(op) < 0) continue;
    position = new Int32Array(s.numOps);
    for (let p = 0; p < s.numRanks * s.streams; p++) for (let i = start[p]; i < start[p + 1]; i++) position[order[i]] = i - start[p];
  }
  let first = true;
  for (let p = 0; p < s.numRanks * s.streams; p++) {
    if (start[p] === start[p + 1]) continue;
    let chunk = `${first ? '' : ','}\n{"rank":${Math.floor(p / s.streams)},"stream":${p % s.streams},"ops":[`;
    first = false;
    for (let i = start[p]; i < start[p + 1]; i++) {
      chunk += (i > start[p] ? ',' : '') + opJson(s, order[i], position);
      if (chunk.length > 1 << 16) {
        yield chunk;
        chunk = '';
      }
    }
    yield `${chunk}]}`;
  }
  yield '\n]}\n';
}

function opJson(s: Schedule, op: number, position: Int32Array | undefined): string {
  switch (s.opKind[op]) {
    case OpKind.Send: {
      const p = s.opPeer[op];
      const to = p >= 0 ? String(p) : `[${s.sendDests(op).join(',')}]`;
      const name = s.isNonBlocking(op) ? 'isend' : s.isSeparateSend(op) ? 'separate-send' : 'send';
      return `["${name}",${to},${s.dataRegion(op)},${s.opTag[op]}${s.sendHint(op) >= 0 ? `,${s.sendHint(op)}` : ''}]`;
    }
    case OpKind.Recv:
      return `["${s.isNonBlocking(op) ? 'irecv' : 'recv'}",${s.opPeer[op]},${s.dataRegion(op)},${s.opTag[op]}]`;
    case OpKind.Copy:
      return `["copy",${s.dataRegion(op)},${s.targetRegion(op)}]`;
    case OpKind.Reduce:
      return `["reduce","${REDUCE_OPS[s.reduceOpIndex(op)]}",${s.dataRegion(op)},${s.targetRegion(op)}${s.reduceCharged(op) ? '' : ',"uncharged"'}]`;
    case OpKind.Barrier:
      return `["barrier",${s.opPeer[op]}]`;
    case OpKind.Pace:
      return `["pace",${s.paceGap(op)}]`;
    case OpKind.Wait:
      return s.waitTarget(op) < 0 ? '["waitall"]' : `["wait",${position![s.waitTarget(op)]}]`;
    default:
      return `["hw","${HW_KINDS[s.opTag[op]]}","${REDUCE_OPS[s.reduceOpIndex(op)]}",${s.dataRegion(op)},${s.opPeer[op]}${s.targetRegion(op) !== s.dataRegion(op) ? `,${s.targetRegion(op)}` : ''}]`;
  }
}

/** The whole JSON text (for small schedules and tests). */
export function scheduleToJson(s: Schedule): string {
  let out = '';
  for (const c of scheduleJsonChunks(s)) out += c;
  return out;
}

type Obj = Record<string, unknown>;

function obj(v: unknown, field: string): Obj {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new InputError(field, v, 'an object');
  return v as Obj;
}
function arr(v: unknown, field: string): unknown[] {
  if (!Array.isArray(v)) throw new InputError(field, v, 'an array');
  return v;
}
function int(v: unknown, field: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw new InputError(field, v, `an integer from ${min} to ${max}`);
  return v;
}
/** A misspelt key would otherwise be dropped in silence (e.g. "inplace": true ran out of place). */
function onlyKeys(o: Obj, field: string, allowed: readonly string[]): void {
  for (const key of Object.keys(o)) {
    if (!allowed.includes(key)) throw new InputError(`${field}.${key}`, o[key], `no such key; the keys are ${allowed.join(', ')}`);
  }
}
/** Op arrays have a fixed number of entries, some optional at the end. */
const OP_LENGTHS: Record<string, readonly [number, number]> = {
  send: [4, 5], isend: [4, 5], 'separate-send': [4, 4], recv: [4, 4], irecv: [4, 4], wait: [2, 2], waitall: [1, 1],
  copy: [3, 3], reduce: [4, 5], barrier: [2, 2], pace: [2, 2], hw: [5, 6],
};
function str<T extends string>(v: unknown, field: string, choices: readonly T[]): T {
  if (typeof v !== 'string' || !(choices as readonly string[]).includes(v)) throw new InputError(field, v, `one of ${choices.join(', ')}`);
  return v as T;
}

/** Reads a schedule from parsed JSON, checking every field; errors name the field (e.g. programs[2].ops[5][1]). */
export function scheduleFromJson(input: unknown, context = 'schedule'): Schedule {
  const root = obj(input, context);
  const f = (k: string): string => `${context}.${k}`;
  onlyKeys(root, context, ['format', 'version', 'algorithm', 'algorithmSpec', 'topology', 'mapping', 'ranks', 'streams', 'dtype', 'op', 'inPlace', 'parts', 'buffers', 'regions', 'groups', 'hints', 'programs']);
  if (root.format !== SCHEDULE_FORMAT) throw new InputError(f('format'), root.format, `"${SCHEDULE_FORMAT}"`);
  if (root.mapping !== undefined && (typeof root.mapping !== 'string' || root.mapping.trim() === '')) throw new InputError(f('mapping'), root.mapping, 'a rank mapping such as random:seed=3 or a permutation file');
  if (root.version !== SCHEDULE_VERSION) throw new InputError(f('version'), root.version, String(SCHEDULE_VERSION));
  const ranks = int(root.ranks, f('ranks'), 1, 1 << 24);
  const streams = int(root.streams, f('streams'), 1, MAX_STREAMS);
  const dtype = str<Dtype>(root.dtype ?? 'int32', f('dtype'), DTYPES);
  const op = str<ReduceOp>(root.op ?? 'sum', f('op'), REDUCE_OPS);
  if (root.inPlace !== undefined && typeof root.inPlace !== 'boolean') throw new InputError(f('inPlace'), root.inPlace, 'true or false');
  const parts = arr(root.parts, f('parts')).map((p, i) => {
    const o = obj(p, `${f('parts')}[${i}]`);
    const pf = (k: string): string => `${f('parts')}[${i}].${k}`;
    onlyKeys(o, `${f('parts')}[${i}]`, ['collective', 'ranks', 'size', 'root', 'peer', 'sizes']);
    const collective = str<CollectiveKind>(o.collective, pf('collective'), COLLECTIVES);
    const rs = arr(o.ranks, pf('ranks')).map((r, k) => int(r, `${pf('ranks')}[${k}]`, 0, ranks - 1));
    const size = int(o.size, pf('size'));
    const rootRank = o.root === undefined || o.root === -1 ? undefined : int(o.root, pf('root'), 0, ranks - 1);
    const peer = o.peer === undefined || o.peer === -1 ? undefined : int(o.peer, pf('peer'), 0, ranks - 1);
    const sizes = o.sizes === undefined ? undefined : arr(o.sizes, pf('sizes')).map((x, k) => int(x, `${pf('sizes')}[${k}]`));
    return { collective, ranks: rs, size, root: rootRank, peer, sizes };
  });
  if (parts.length === 0) throw new InputError(f('parts'), [], 'at least one part');
  const b = new ScheduleBuilder({
    collective: parts[0].collective,
    numRanks: ranks,
    size: parts[0].size,
    root: parts[0].root,
    peer: parts[0].peer,
    dtype,
    op,
    inPlace: root.inPlace === true,
    streams,
    algorithm: typeof root.algorithm === 'string' ? root.algorithm : 'custom',
    algorithmSpec: typeof root.algorithmSpec === 'string' ? root.algorithmSpec : undefined,
    topology: typeof root.topology === 'string' ? root.topology : '',
    parts,
  });
  const buffers = arr(root.buffers, f('buffers'));
  buffers.forEach((bv, i) => {
    const o = obj(bv, `${f('buffers')}[${i}]`);
    onlyKeys(o, `${f('buffers')}[${i}]`, ['name', 'bytes']);
    if (i < 2) {
      if (o.name !== (i === 0 ? 'send' : 'recv')) throw new InputError(`${f('buffers')}[${i}].name`, o.name, i === 0 ? '"send"' : '"recv"');
      return;
    }
    if (typeof o.name !== 'string') throw new InputError(`${f('buffers')}[${i}].name`, o.name, 'a buffer name');
    if (o.name === 'send' || o.name === 'recv') throw new InputError(`${f('buffers')}[${i}].name`, o.name, 'distinct buffer names (send and recv are buffers 0 and 1)');
    const id = b.tmpBuffer(o.name, int(o.bytes, `${f('buffers')}[${i}].bytes`));
    if (id !== i) throw new InputError(`${f('buffers')}[${i}].name`, o.name, 'distinct buffer names');
  });
  if (buffers.length < 2) throw new InputError(f('buffers'), buffers, 'at least send and recv');
  const nbuf = buffers.length;
  const regionMap = arr(root.regions, f('regions')).map((rv, i) => {
    const rf = `${f('regions')}[${i}]`;
    if (Array.isArray(rv)) {
      const ext = rv.map((e, k) => {
        const a = arr(e, `${rf}[${k}]`);
        if (a.length !== 3) throw new InputError(`${rf}[${k}]`, e, '[buffer, offset, length]');
        return [int(a[0], `${rf}[${k}][0]`, 0, nbuf - 1), int(a[1], `${rf}[${k}][1]`), int(a[2], `${rf}[${k}][2]`)] as [number, number, number];
      });
      return b.extents(ext);
    }
    const o = obj(rv, rf);
    onlyKeys(o, rf, ['strided']);
    const v = arr(o.strided, `${rf}.strided`);
    if (v.length !== 5 && v.length !== 7) {
      throw new InputError(`${rf}.strided`, v, '[buffer, offset, length, stride, count] or [buffer, offset, length, inner stride, inner count, outer stride, outer count]');
    }
    // Counts (the last entry, and the inner count of the two-level form) are at least 1.
    const isCount = (k: number): boolean => k === v.length - 1 || (v.length === 7 && k === 4);
    const x = v.map((e, k) => int(e, `${rf}.strided[${k}]`, isCount(k) ? 1 : 0, k === 0 ? nbuf - 1 : undefined));
    if (v.length === 5) return b.strided(x[0], x[1], x[2], x[3], x[4]);
    return b.strided2(x[0], x[1], x[2], x[3], x[4], x[5], x[6]);
  });
  const groupMap = arr(root.groups ?? [], f('groups')).map((gv, i) =>
    b.groupOfPairs(
      arr(gv, `${f('groups')}[${i}]`).map((m, k) => {
        const a = arr(m, `${f('groups')}[${i}][${k}]`);
        if (a.length !== 2) throw new InputError(`${f('groups')}[${i}][${k}]`, m, '[rank, stream]');
        return { rank: int(a[0], `${f('groups')}[${i}][${k}][0]`, 0, ranks - 1), stream: int(a[1], `${f('groups')}[${i}][${k}][1]`, 0, streams - 1) };
      }),
    ),
  );
  const hintMap = arr(root.hints ?? [], f('hints')).map((hv, i) => {
    const o = obj(hv, `${f('hints')}[${i}]`);
    onlyKeys(o, `${f('hints')}[${i}]`, ['kind', 'nodes']);
    const kind = str<HintKind>(o.kind, `${f('hints')}[${i}].kind`, HINT_KINDS);
    const nodes = arr(o.nodes ?? [], `${f('hints')}[${i}].nodes`).map((x, k) => int(x, `${f('hints')}[${i}].nodes[${k}]`));
    return b.hint(kind, nodes);
  });
  const ref = (map: number[], v: unknown, field: string, allowNone = false): number => {
    if (allowNone && v === -1) return -1;
    return map[int(v, field, 0, map.length - 1)];
  };
  const programs = arr(root.programs, f('programs'));
  programs.forEach((pv, i) => {
    const pf = `${f('programs')}[${i}]`;
    const o = obj(pv, pf);
    onlyKeys(o, pf, ['rank', 'stream', 'ops']);
    const rank = int(o.rank, `${pf}.rank`, 0, ranks - 1);
    const stream = int(o.stream, `${pf}.stream`, 0, streams - 1);
    const ids: number[] = [];
    arr(o.ops, `${pf}.ops`).forEach((ov, k) => {
      const of = `${pf}.ops[${k}]`;
      const a = arr(ov, of);
      const at = (j: number): string => `${of}[${j}]`;
      const lengths = typeof a[0] === 'string' && Object.hasOwn(OP_LENGTHS, a[0]) ? OP_LENGTHS[a[0]] : undefined;
      if (lengths && (a.length < lengths[0] || a.length > lengths[1])) {
        throw new InputError(of, ov, `a "${a[0]}" op of ${lengths[0] === lengths[1] ? lengths[0] : `${lengths[0]} to ${lengths[1]}`} entries (format: src/collectives/json.ts, schemas/schedule.schema.json)`);
      }
      switch (a[0]) {
        case 'send': {
          const to = Array.isArray(a[1]) ? a[1].map((x, j) => int(x, `${at(1)}[${j}]`, 0, ranks - 1)) : int(a[1], at(1), 0, ranks - 1);
          b.send(rank, to, ref(regionMap, a[2], at(2)), int(a[3], at(3), -(2 ** 31), 2 ** 31 - 1), stream, a[4] === undefined ? -1 : ref(hintMap, a[4], at(4), true));
          break;
        }
        case 'wait': {
          const j = int(a[1], at(1), 0, Math.max(0, k - 1));
          if (j >= k) throw new InputError(at(1), a[1], 'the index of an earlier isend or irecv in this program');
          ids.push(b.wait(rank, ids[j], stream));
          return;
        }
        case 'isend':
          b.isend(rank, int(a[1], at(1), 0, ranks - 1), ref(regionMap, a[2], at(2)), int(a[3], at(3), -(2 ** 31), 2 ** 31 - 1), stream, a[4] === undefined ? -1 : ref(hintMap, a[4], at(4), true));
          break;
        case 'separate-send':
          b.separateSend(rank, int(a[1], at(1), 0, ranks - 1), ref(regionMap, a[2], at(2)), int(a[3], at(3), -(2 ** 31), 2 ** 31 - 1), stream);
          break;
        case 'irecv':
          b.irecv(rank, int(a[1], at(1), 0, ranks - 1), ref(regionMap, a[2], at(2)), int(a[3], at(3), -(2 ** 31), 2 ** 31 - 1), stream);
          break;
        case 'waitall':
          b.waitall(rank, stream);
          break;
        case 'recv':
          b.recv(rank, int(a[1], at(1), 0, ranks - 1), ref(regionMap, a[2], at(2)), int(a[3], at(3), -(2 ** 31), 2 ** 31 - 1), stream);
          break;
        case 'copy':
          b.copy(rank, ref(regionMap, a[1], at(1)), ref(regionMap, a[2], at(2)), stream);
          break;
        case 'reduce': {
          if (a[4] !== undefined) str(a[4], at(4), ['uncharged']);
          b.reduce(rank, ref(regionMap, a[2], at(2)), ref(regionMap, a[3], at(3)), stream, str<ReduceOp>(a[1], at(1), REDUCE_OPS), a[4] === undefined);
          break;
        }
        case 'barrier':
          b.barrier(rank, ref(groupMap, a[1], at(1)), stream);
          break;
        case 'pace':
          if (typeof a[1] !== 'number' || !(a[1] >= 0)) throw new InputError(at(1), a[1], 'a gap >= 0 in packet times');
          b.pace(rank, a[1], stream);
          break;
        case 'hw':
          b.hw(rank, str<HwKind>(a[1], at(1), HW_KINDS), str<ReduceOp>(a[2], at(2), REDUCE_OPS), ref(regionMap, a[3], at(3), true), ref(groupMap, a[4], at(4)), stream, a[5] === undefined ? undefined : ref(regionMap, a[5], at(5), true));
          break;
        default:
          throw new InputError(at(0), a[0], 'send, recv, isend, irecv, wait, waitall, separate-send, copy, reduce, barrier, pace or hw');
      }
      ids.push(b.numOps - 1);
    });
  });
  return b.finish();
}
