/**
 * Reading MLCommons Chakra execution traces (schema: et_def.proto beside this file). An `.et` file
 * is a stream of protobuf messages, each preceded by its length as a varint: one GlobalMetadata,
 * then one Node per message. The messages are decoded by the code protobuf-es generated from the
 * schema (gen/et_def_pb.ts); this module only splits the stream, reads the attributes Meshwork
 * uses into plain fields, and refuses what it cannot time, naming the file, the node and the field.
 *
 * Platform-neutral: it reads bytes; the Node adapter (node/chakra.ts) finds and reads the files.
 */
import { fromBinary } from '@bufbuild/protobuf';
import { sizeDelimitedPeek } from '@bufbuild/protobuf/wire';
import { InputError } from '../../util/errors.js';
import { CollectiveCommType, GlobalMetadataSchema, NodeSchema, NodeType, type AttributeProto, type Node } from './gen/et_def_pb.js';

export type ChakraNodeKind = 'comp' | 'send' | 'recv' | 'coll' | 'load' | 'store' | 'metadata' | 'invalid';

import type { ChakraCollective } from './names.js';

export { CHAKRA_COLLECTIVES, type ChakraCollective } from './names.js';

const COLLECTIVE_OF: Record<number, ChakraCollective> = {
  [CollectiveCommType.ALL_REDUCE]: 'allreduce',
  [CollectiveCommType.REDUCE]: 'reduce',
  [CollectiveCommType.ALL_GATHER]: 'allgather',
  [CollectiveCommType.GATHER]: 'gather',
  [CollectiveCommType.SCATTER]: 'scatter',
  [CollectiveCommType.BROADCAST]: 'broadcast',
  [CollectiveCommType.ALL_TO_ALL]: 'alltoall',
  [CollectiveCommType.REDUCE_SCATTER]: 'reduce-scatter',
  [CollectiveCommType.REDUCE_SCATTER_BLOCK]: 'reduce-scatter',
  [CollectiveCommType.BARRIER]: 'barrier',
};

const KIND_OF: Record<number, ChakraNodeKind> = {
  [NodeType.INVALID_NODE]: 'invalid',
  [NodeType.METADATA_NODE]: 'metadata',
  [NodeType.MEM_LOAD_NODE]: 'load',
  [NodeType.MEM_STORE_NODE]: 'store',
  [NodeType.COMP_NODE]: 'comp',
  [NodeType.COMM_SEND_NODE]: 'send',
  [NodeType.COMM_RECV_NODE]: 'recv',
  [NodeType.COMM_COLL_NODE]: 'coll',
};

/** One node with the fields Meshwork times; absent attributes are undefined. */
export interface ChakraNode {
  readonly id: number;
  readonly name: string;
  readonly kind: ChakraNodeKind;
  readonly dataDeps: readonly number[];
  readonly ctrlDeps: readonly number[];
  /** duration_micros (0 when the trace has none). */
  readonly durationMicros: number;
  /** Attribute is_cpu_op (Chakra's default: false, a GPU op). */
  readonly isCpu: boolean;
  /** COMP: num_ops (FLOPs); MEM and COMP: tensor_size (bytes). */
  readonly numOps?: number;
  readonly tensorSize?: number;
  /** COMM_COLL: comm_type; COMM_*: comm_size (bytes), pg_name. */
  readonly collective?: ChakraCollective;
  readonly commSize?: number;
  readonly pgName?: string;
  /** COMM_SEND/RECV: comm_src, comm_dst, comm_tag. */
  readonly commSrc?: number;
  readonly commDst?: number;
  readonly commTag?: number;
  /** COMM_COLL broadcast/reduce/gather/scatter: root_rank (default 0). */
  readonly root?: number;
  /** METADATA: the inputs' values (PyTorch process-group metadata). */
  readonly inputsValues?: string;
}

/** One rank's trace file. */
export interface ChakraRankTrace {
  readonly file: string;
  readonly rank: number;
  readonly version: string;
  /** GlobalMetadata attributes as strings (name → value). */
  readonly metadata: Readonly<Record<string, string>>;
  readonly nodes: readonly ChakraNode[];
}

/** A refusal that names the file, the node and the field (one line, exit code 2 at the CLI). */
export function traceError(file: string, node: number | null, field: string, value: unknown, accepted: string): InputError {
  return new InputError(`${file}${node === null ? '' : `: node ${node}`}: ${field}`, value, accepted);
}

/** Attribute value as a JavaScript value (64-bit integers as numbers when exact, else the bigint). */
function attrValue(a: AttributeProto): unknown {
  const v = a.value;
  switch (v.case) {
    case undefined:
      return undefined;
    case 'doubleList':
    case 'floatList':
    case 'int32List':
    case 'int64List':
    case 'uint32List':
    case 'uint64List':
    case 'sint32List':
    case 'sint64List':
    case 'fixed32List':
    case 'fixed64List':
    case 'sfixed32List':
    case 'sfixed64List':
    case 'boolList':
    case 'stringList':
    case 'bytesList':
      return v.value.values.map((x) => (typeof x === 'bigint' ? bigToNumber(x) : x));
    default:
      return typeof v.value === 'bigint' ? bigToNumber(v.value) : v.value;
  }
}

function bigToNumber(x: bigint): number | bigint {
  return x <= BigInt(Number.MAX_SAFE_INTEGER) && x >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : x;
}

/** A uint64 field as an exact number, or a refusal. */
function exact(x: bigint, file: string, node: number | null, field: string): number {
  if (x > BigInt(Number.MAX_SAFE_INTEGER)) throw traceError(file, node, field, x.toString(), `an integer up to 2^53 - 1`);
  return Number(x);
}

/** The body [start, end) of the length-delimited message at `pos` (protobuf-es reads the varint). */
function frame(bytes: Uint8Array, pos: number, file: string, index: number): [number, number] {
  let peek: ReturnType<typeof sizeDelimitedPeek>;
  try {
    peek = sizeDelimitedPeek(bytes.subarray(pos));
  } catch {
    throw traceError(file, null, `message ${index} length`, `an invalid varint at byte ${pos}`, 'a varint length before each message');
  }
  if (peek.eof) throw traceError(file, null, `message ${index} length`, `a truncated varint at byte ${pos}`, 'a varint length before each message');
  const start = pos + peek.offset;
  if (start + peek.size > bytes.length) {
    throw traceError(file, null, `message ${index}`, `${peek.size} bytes at byte ${start}, file ends at ${bytes.length}`, 'a complete message (the file is truncated)');
  }
  return [start, start + peek.size];
}

function nonNegativeInt(value: unknown, file: string, node: number, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  throw traceError(file, node, field, typeof value === 'bigint' ? value.toString() : value, 'a non-negative integer below 2^53');
}

function nonNegative(value: unknown, file: string, node: number, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  throw traceError(file, node, field, typeof value === 'bigint' ? value.toString() : value, 'a non-negative number');
}

function toNode(n: Node, file: string): ChakraNode {
  const id = exact(n.id, file, null, 'node id');
  const kind = KIND_OF[n.type];
  if (kind === undefined) throw traceError(file, id, 'type', n.type, 'a NodeType of et_def.proto (0 to 7)');
  const attrs = new Map<string, unknown>();
  for (const a of n.attr) attrs.set(a.name, attrValue(a));
  const deps = (list: bigint[], field: string): number[] => list.map((d) => exact(d, file, id, field));
  const node: { -readonly [K in keyof ChakraNode]: ChakraNode[K] } = {
    id,
    name: n.name,
    kind,
    dataDeps: deps(n.dataDeps, 'data_deps'),
    ctrlDeps: deps(n.ctrlDeps, 'ctrl_deps'),
    durationMicros: exact(n.durationMicros, file, id, 'duration_micros'),
    isCpu: attrs.get('is_cpu_op') === true,
  };
  node.numOps = nonNegative(attrs.get('num_ops'), file, id, 'num_ops');
  node.tensorSize = nonNegative(attrs.get('tensor_size'), file, id, 'tensor_size');
  node.commSize = nonNegativeInt(attrs.get('comm_size'), file, id, 'comm_size');
  const pg = attrs.get('pg_name');
  if (pg !== undefined) node.pgName = String(pg);
  if (kind === 'coll' && attrs.has('comm_type')) {
    const t = attrs.get('comm_type');
    const c = typeof t === 'number' ? COLLECTIVE_OF[t] : undefined;
    if (c === undefined) throw traceError(file, id, 'comm_type', typeof t === 'bigint' ? t.toString() : t, 'a CollectiveCommType (0 to 9)');
    node.collective = c;
    node.root = nonNegativeInt(attrs.get('root_rank') ?? attrs.get('root'), file, id, 'root_rank');
  }
  if (kind === 'send' || kind === 'recv') {
    node.commSrc = nonNegativeInt(attrs.get('comm_src'), file, id, 'comm_src');
    node.commDst = nonNegativeInt(attrs.get('comm_dst'), file, id, 'comm_dst');
    const tag = attrs.get('comm_tag');
    if (tag !== undefined && !(typeof tag === 'number' && Number.isInteger(tag) && tag >= 0 && tag < 2 ** 31)) {
      throw traceError(file, id, 'comm_tag', typeof tag === 'bigint' ? tag.toString() : tag, 'an integer from 0 to 2^31 - 1');
    }
    node.commTag = tag;
  }
  if (kind === 'metadata' && n.inputs) node.inputsValues = n.inputs.values;
  return node;
}

/**
 * Decodes one rank's `.et` bytes. Refuses a truncated stream, a message that is not valid
 * protobuf for its place (GlobalMetadata first, then Node), a node of unknown type or a duplicate
 * node id, each naming the file and the message or node.
 */
export function decodeChakraRank(bytes: Uint8Array, file: string, rank: number): ChakraRankTrace {
  if (bytes.length === 0) throw traceError(file, null, 'GlobalMetadata', 'an empty file', 'a Chakra .et stream: a GlobalMetadata message, then Node messages');
  let [start, end] = frame(bytes, 0, file, 0);
  let meta;
  try {
    meta = fromBinary(GlobalMetadataSchema, bytes.subarray(start, end));
  } catch (err) {
    throw traceError(file, null, 'GlobalMetadata', (err as Error).message, 'a valid GlobalMetadata protobuf message first');
  }
  const metadata: Record<string, string> = {};
  for (const a of meta.attr) metadata[a.name] = String(attrValue(a));
  const nodes: ChakraNode[] = [];
  const seen = new Set<number>();
  let index = 1;
  for (let pos = end; pos < bytes.length; index++) {
    [start, end] = frame(bytes, pos, file, index);
    pos = end;
    let n: Node;
    try {
      n = fromBinary(NodeSchema, bytes.subarray(start, end));
    } catch (err) {
      throw traceError(file, null, `message ${index}`, (err as Error).message, 'a valid Node protobuf message');
    }
    const node = toNode(n, file);
    if (seen.has(node.id)) throw traceError(file, node.id, 'id', node.id, 'node ids unique within a file');
    seen.add(node.id);
    nodes.push(node);
  }
  return { file, rank, version: meta.version, metadata, nodes };
}
