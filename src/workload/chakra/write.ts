/**
 * Writing Chakra execution traces: the inverse of read.ts, one `.et` stream per rank (a
 * GlobalMetadata, then the nodes, each length-delimited), encoded by the protobuf-es code
 * generated from et_def.proto. Attributes are written as ASTRA-sim's generators write them
 * (is_cpu_op bool, comm_type/comm_size/num_ops/tensor_size int64, comm_src/comm_dst/comm_tag int32,
 * pg_name string).
 */
import { create } from '@bufbuild/protobuf';
import { sizeDelimitedEncode } from '@bufbuild/protobuf/wire';
import { AttributeProtoSchema, CollectiveCommType, GlobalMetadataSchema, NodeSchema, NodeType, type AttributeProto } from './gen/et_def_pb.js';
import type { ChakraCollective, ChakraNode, ChakraNodeKind } from './read.js';

const TYPE_OF: Record<ChakraNodeKind, NodeType> = {
  invalid: NodeType.INVALID_NODE,
  metadata: NodeType.METADATA_NODE,
  load: NodeType.MEM_LOAD_NODE,
  store: NodeType.MEM_STORE_NODE,
  comp: NodeType.COMP_NODE,
  send: NodeType.COMM_SEND_NODE,
  recv: NodeType.COMM_RECV_NODE,
  coll: NodeType.COMM_COLL_NODE,
};

const COMM_TYPE_OF: Record<ChakraCollective, CollectiveCommType> = {
  allreduce: CollectiveCommType.ALL_REDUCE,
  reduce: CollectiveCommType.REDUCE,
  allgather: CollectiveCommType.ALL_GATHER,
  gather: CollectiveCommType.GATHER,
  scatter: CollectiveCommType.SCATTER,
  broadcast: CollectiveCommType.BROADCAST,
  alltoall: CollectiveCommType.ALL_TO_ALL,
  'reduce-scatter': CollectiveCommType.REDUCE_SCATTER,
  barrier: CollectiveCommType.BARRIER,
};

/** What a writer needs of a node: ChakraNode with the optional fields optional. */
export type ChakraNodeInit = Pick<ChakraNode, 'id' | 'name' | 'kind'> & Partial<Omit<ChakraNode, 'id' | 'name' | 'kind'>>;

function int64(name: string, v: number): AttributeProto {
  return create(AttributeProtoSchema, { name, value: { case: 'int64Val', value: BigInt(v) } });
}

function int32(name: string, v: number): AttributeProto {
  return create(AttributeProtoSchema, { name, value: { case: 'int32Val', value: v } });
}

function attributesOf(n: ChakraNodeInit): AttributeProto[] {
  const attrs: AttributeProto[] = [create(AttributeProtoSchema, { name: 'is_cpu_op', value: { case: 'boolVal', value: n.isCpu ?? false } })];
  if (n.collective !== undefined) attrs.push(int64('comm_type', COMM_TYPE_OF[n.collective]));
  if (n.commSize !== undefined) attrs.push(int64('comm_size', n.commSize));
  if (n.root !== undefined) attrs.push(int64('root_rank', n.root));
  if (n.commSrc !== undefined) attrs.push(int32('comm_src', n.commSrc));
  if (n.commDst !== undefined) attrs.push(int32('comm_dst', n.commDst));
  if (n.commTag !== undefined) attrs.push(int32('comm_tag', n.commTag));
  if (n.numOps !== undefined) attrs.push(int64('num_ops', n.numOps));
  if (n.tensorSize !== undefined) attrs.push(int64('tensor_size', n.tensorSize));
  if (n.pgName !== undefined) attrs.push(create(AttributeProtoSchema, { name: 'pg_name', value: { case: 'stringVal', value: n.pgName } }));
  return attrs;
}

/** One rank's `.et` bytes. `version` is the GlobalMetadata version (ASTRA-sim's generators write 0.0.4). */
export function encodeChakraRank(nodes: readonly ChakraNodeInit[], version = '0.0.4'): Uint8Array {
  const parts: Uint8Array[] = [sizeDelimitedEncode(GlobalMetadataSchema, create(GlobalMetadataSchema, { version }))];
  for (const n of nodes) {
    const node = create(NodeSchema, {
      id: BigInt(n.id),
      name: n.name,
      type: TYPE_OF[n.kind],
      dataDeps: (n.dataDeps ?? []).map(BigInt),
      ctrlDeps: (n.ctrlDeps ?? []).map(BigInt),
      durationMicros: BigInt(Math.round(n.durationMicros ?? 0)),
      attr: attributesOf(n),
      ...(n.inputsValues !== undefined ? { inputs: { values: n.inputsValues } } : {}),
    });
    parts.push(sizeDelimitedEncode(NodeSchema, node));
  }
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
