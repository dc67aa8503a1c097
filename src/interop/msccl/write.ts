/**
 * Schedule IR → MSCCL-XML. Each rank is a gpu; each stream becomes a chain of thread blocks (an
 * MSCCL thread block has one send and one receive peer, so a stream is cut where its peers
 * change, and each new thread block waits for the previous one's last step: program order kept);
 * send/recv/copy/reduce become s/r/cpy/re steps over contiguous chunks; the message tag is the
 * channel. What has no MSCCL form is refused with the reason (exportability): multicast, barriers,
 * combining-network ops, non-contiguous regions, several sub-communicators, a root other than 0.
 * Route hints and pacing are timing-only and dropped (docs/interop.md lists what is lost).
 */
import { InputError } from '../../util/errors.js';
import { ioBytes, SEND, type Schedule } from '../../collectives/schedule.js';
import { OpKind } from '../../collectives/types.js';
import { xmlAttributes } from '../xml.js';
import type { MscclProtocol } from './format.js';

const COLL_NAMES: Readonly<Record<string, string>> = {
  allreduce: 'allreduce',
  allgather: 'allgather',
  'reduce-scatter': 'reducescatter',
  alltoall: 'alltoall',
  broadcast: 'broadcast',
  reduce: 'reduce',
  gather: 'gather',
  scatter: 'scatter',
};

/** Why a schedule has no MSCCL-XML form, or undefined when it has one. */
export function mscclExportProblem(s: Schedule): string | undefined {
  if (s.parts.length !== 1) return 'several sub-communicators (MSCCL runs one collective on all gpus)';
  const part = s.parts[0];
  if (!COLL_NAMES[part.collective]) return `the collective ${part.collective} (MSCCL names ${Object.keys(COLL_NAMES).join(', ')})`;
  if (part.ranks.length !== s.numRanks) return 'a communicator of a subset of the ranks';
  if (part.collective === 'reduce-scatter' && s.inPlace) return 'an in-place reduce-scatter (MSCCL keeps the result at the rank\'s block, Meshwork at offset 0)';
  if (part.root > 0) return `root ${part.root} (MSCCL-XML has no root attribute: the root is gpu 0)`;
  for (let op = 0; op < s.numOps; op++) {
    const k = s.opKind[op];
    if (k === OpKind.Barrier) return 'barriers (MSCCL synchronises only through messages and same-gpu dependencies)';
    if (k === OpKind.HwCollective) return 'combining-network (hw) operations';
    if (k === OpKind.Send && s.opPeer[op] < 0) return 'multicast sends (an MSCCL step sends to one peer)';
    if (k === OpKind.Send && s.opPeer[op] === s.opRank[op]) return 'messages of a rank to itself (signals between its streams; MSCCL orders thread blocks by step dependencies, which the exporter does not write)';
    if (k === OpKind.Wait || s.isNonBlocking(op)) return 'non-blocking posting (isend, irecv, wait: an MSCCL thread block runs its steps in order, so receives posted before sends would wait forever)';
    if (k === OpKind.Pace) continue;
    for (const region of k === OpKind.Copy || k === OpKind.Reduce ? [s.dataRegion(op), s.targetRegion(op)] : [s.dataRegion(op)]) {
      if (s.regionExtents(region) !== 1) return `non-contiguous regions (op #${op}: ${s.describeOp(op)}); an MSCCL step moves consecutive chunks of one buffer`;
    }
  }
  return undefined;
}

export interface MscclExportOptions {
  readonly name?: string;
  /** Default Simple. */
  readonly proto?: MscclProtocol;
}

/** Refuses, in one line naming the reason, a schedule with no MSCCL-XML form. */
export function assertMscclExportable(s: Schedule): void {
  const problem = mscclExportProblem(s);
  if (problem) throw new InputError('format', 'msccl-xml', `a schedule MSCCL-XML can express; ${s.algorithmSpec} has ${problem}`);
}

/** Yields the MSCCL-XML text of a schedule in pieces (one per thread block). */
export function* mscclXmlChunks(s: Schedule, opts: MscclExportOptions = {}): Generator<string> {
  assertMscclExportable(s);
  const part = s.parts[0];
  const chunk = chunkBytes(s);
  // Temporaries are laid end to end in the scratch buffer.
  const scratchBase: number[] = [0, 0];
  let scratch = 0;
  for (let b = 2; b < s.buffers.length; b++) {
    scratchBase.push(scratch);
    scratch += s.buffers[b].bytes;
  }
  const where = (buf: number, offset: number): [string, number] => {
    if (buf >= 2) return ['s', (scratchBase[buf] + offset) / chunk];
    // In place, the input lives in the output buffer: MSCCL's inplace="1" with only `o` named.
    return [buf === SEND ? 'i' : 'o', offset / chunk];
  };
  const extent = (region: number): [string, number, number] => {
    const st = s.regStart[region];
    const [b, off] = where(s.extBuf[st], s.extOff[st]);
    return [b, off, s.extLen[st] / chunk];
  };
  const tags = [...new Set(Array.from(s.opTag.subarray(0, s.numOps)))].sort((x, y) => x - y);
  const chanOf = new Map(tags.map((t, i) => [t, i]));
  const io = ioBytes(part, 0);
  yield `<algo ${xmlAttributes({
    name: opts.name ?? s.algorithmSpec,
    proto: opts.proto ?? 'Simple',
    nchannels: Math.max(1, tags.length),
    nchunksperloop: Math.max(1, io.send / chunk),
    ngpus: s.numRanks,
    coll: COLL_NAMES[part.collective],
    inplace: s.inPlace ? 1 : 0,
    ...(s.op === 'sum' ? {} : { redop: s.op }),
  })}>\n`;
  const { start, order } = s.programs();
  for (let r = 0; r < s.numRanks; r++) {
    const local = part.ranks.indexOf(r);
    const bytes = ioBytes(part, local);
    yield `  <gpu ${xmlAttributes({ id: r, i_chunks: bytes.send / chunk, o_chunks: bytes.recv / chunk, s_chunks: scratch / chunk })}>\n`;
    let tb = 0;
    for (let st = 0; st < s.streams; st++) {
      const p = r * s.streams + st;
      const ops = Array.from(order.subarray(start[p], start[p + 1])).filter((op) => s.opKind[op] !== OpKind.Pace);
      let i = 0;
      let previous: { tb: number; step: number } | undefined;
      while (i < ops.length) {
        // The longest run of ops with one send peer, one receive peer and one channel.
        let send = -1;
        let recv = -1;
        let chan = -1;
        let j = i;
        for (; j < ops.length; j++) {
          const op = ops[j];
          const k = s.opKind[op];
          if (k !== OpKind.Send && k !== OpKind.Recv) continue;
          const c = chanOf.get(s.opTag[op])!;
          const peer = s.opPeer[op];
          if (chan >= 0 && c !== chan) break;
          if (k === OpKind.Send ? send >= 0 && peer !== send : recv >= 0 && peer !== recv) break;
          chan = c;
          if (k === OpKind.Send) send = peer;
          else recv = peer;
        }
        const steps: string[] = [];
        for (let q = i; q < j; q++) {
          const op = ops[q];
          const k = s.opKind[op];
          const [type, src, dst] =
            k === OpKind.Send || k === OpKind.Recv
              ? [k === OpKind.Send ? 's' : 'r', extent(s.dataRegion(op)), extent(s.dataRegion(op))]
              : [k === OpKind.Copy ? 'cpy' : 're', extent(s.dataRegion(op)), extent(s.targetRegion(op))];
          const dep = q === i && previous ? previous : undefined;
          const last = q === j - 1 && j < ops.length;
          steps.push(
            `      <step ${xmlAttributes({ s: q - i, type, srcbuf: src[0], srcoff: src[1], dstbuf: dst[0], dstoff: dst[1], cnt: src[2], depid: dep?.tb ?? -1, deps: dep?.step ?? -1, hasdep: last ? 1 : 0 })}/>\n`,
          );
        }
        yield `    <tb ${xmlAttributes({ id: tb, send, recv, chan: Math.max(chan, 0) })}>\n${steps.join('')}    </tb>\n`;
        previous = { tb, step: j - i - 1 };
        tb++;
        i = j;
      }
    }
    yield '  </gpu>\n';
  }
  yield '</algo>\n';
}

/** The chunk: the largest size dividing every extent, buffer and the collective's blocks. */
function chunkBytes(s: Schedule): number {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  let g = 0;
  for (let e = 0; e < s.extOff.length; e++) g = gcd(gcd(g, s.extOff[e]), s.extLen[e]);
  for (let b = 2; b < s.buffers.length; b++) g = gcd(g, s.buffers[b].bytes);
  const part = s.parts[0];
  for (let j = 0; j < part.ranks.length; j++) {
    const io = ioBytes(part, j);
    g = gcd(gcd(g, io.send), io.recv);
  }
  if (part.collective === 'allgather' && s.inPlace) g = gcd(g, part.size);
  if (g === 0) throw new InputError('format', 'msccl-xml', `a schedule that moves data (${s.algorithmSpec} moves none)`);
  return g;
}

/** The whole MSCCL-XML text (small schedules; large ones stream `mscclXmlChunks`). */
export function scheduleToMscclXml(s: Schedule, opts: MscclExportOptions = {}): string {
  return [...mscclXmlChunks(s, opts)].join('');
}
