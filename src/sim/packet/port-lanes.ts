/**
 * A router's port numbers as its allocators see them ("lanes"): BookSim's port numbers where the
 * family declares them (`booksimPorts`, k-ary n-cubes), else the topology's own port numbers, in
 * which a terminal attached to a switch (its ports moved onto the switch) keeps the number of its
 * link at the switch. The engine's local port indices are not these: it lists a router's network
 * inputs before its terminals' and keeps slots that carry nothing (a switch's own injection port,
 * the terminal links whose traffic takes the terminal's port). Round-robin allocators only read
 * the cyclic order, which both share; a wavefront reads the geometry itself (diagonals of a
 * square as wide as the router's ports), so it must see BookSim's: on a cmesh, whose terminals are
 * ports 0–3 in BookSim, the engine's indices made its square 26 wide instead of 16.
 */
import type { Topology } from '../../topology/graph.js';

export interface PortLanesInput {
  topology: Topology;
  /** BookSim's port number of each channel at its destination (in) and source (out), where declared. */
  bsPorts?: { inPort: Int32Array; outPort: Int32Array };
  /** The engine's router port lists: local input slot li of router r is rInPorts[rInStart[r] + li]. */
  rInStart: Int32Array;
  rInPorts: Int32Array;
  /** Filled input slots per router (the rest of its range carries nothing). */
  inFilled: Int32Array;
  rOutStart: Int32Array;
  /** Local output index of each channel at its source router. */
  chOutLocal: Int32Array;
  /** Per router: its channels' local outputs end here; its ejection ports follow (engine layout). */
  rOutDeg: Int32Array;
  /** Terminals whose ports moved onto a switch, and their ejection slot there. */
  direct: Uint8Array;
  attachSlot: Int32Array;
  nInj: number;
  nEj: number;
  /** First injection port id: channels are 0..injBase−1, injection port j of node v is injBase + v·nInj + j. */
  injBase: number;
}

export interface PortLanes {
  /** Per input slot (rInStart-indexed): its lane, or −1 where the slot carries nothing. */
  readonly inLane: Int32Array;
  /** Per output slot (rOutStart-indexed): its lane, or −1 where the slot carries nothing. */
  readonly outLane: Int32Array;
  /** Per router: lanes in use, in and out (one past its highest: BookSim's port count). */
  readonly inLanes: Int32Array;
  readonly outLanes: Int32Array;
}

export function portLanes(p: PortLanesInput): PortLanes {
  const { topology: t, bsPorts, direct, nInj, nEj, injBase } = p;
  const N = t.numNodes;
  const C = t.numChannels;
  const channelIn = (c: number): number => (bsPorts ? bsPorts.inPort[c] : t.chDstPort[c]);
  const channelOut = (c: number): number => (bsPorts ? bsPorts.outPort[c] : t.chSrcPort[c]);
  const isEndpoint = new Uint8Array(N);
  for (const v of t.endpoints) isEndpoint[v] = 1;
  // BookSim's routers take their own terminal's ports after the network ports (kncube.cpp).
  let bsInjection = 0;
  let bsEjection = 0;
  if (bsPorts) {
    for (let c = 0; c < C; c++) {
      bsInjection = Math.max(bsInjection, bsPorts.inPort[c] + 1);
      bsEjection = Math.max(bsEjection, bsPorts.outPort[c] + 1);
    }
  }

  const inLane = new Int32Array(p.rInStart[N]).fill(-1);
  const inLanes = new Int32Array(N);
  for (let r = 0; r < N; r++) {
    const own = bsPorts ? bsInjection : t.inDegree(r);
    // Lanes past the topology's ports: a terminal's second and further injection ports.
    let next = own + (isEndpoint[r] ? nInj : 0);
    for (let li = 0; li < p.inFilled[r]; li++) {
      const slot = p.rInStart[r] + li;
      const port = p.rInPorts[slot];
      let lane: number;
      if (port < C) {
        lane = channelIn(port);
      } else {
        const v = Math.floor((port - injBase) / nInj);
        const j = (port - injBase) % nInj;
        if (v === r) lane = isEndpoint[r] ? own + j : -1;
        else lane = j === 0 && direct[v] ? channelIn(t.outChannels[t.outStart[v]]) : next++;
      }
      inLane[slot] = lane;
      inLanes[r] = Math.max(inLanes[r], lane + 1);
    }
  }

  const outLane = new Int32Array(p.rOutStart[N]).fill(-1);
  const outLanes = new Int32Array(N);
  const nextOut = new Int32Array(N);
  const set = (r: number, local: number, lane: number): void => {
    outLane[p.rOutStart[r] + local] = lane;
    outLanes[r] = Math.max(outLanes[r], lane + 1);
  };
  for (let r = 0; r < N; r++) {
    if (direct[r]) continue;
    for (let i = t.outStart[r]; i < t.outStart[r + 1]; i++) {
      const c = t.outChannels[i];
      if (!direct[t.chDst[c]]) set(r, p.chOutLocal[c], channelOut(c));
    }
    const own = bsPorts ? bsEjection : t.outDegree(r);
    if (isEndpoint[r]) for (let j = 0; j < nEj; j++) set(r, p.rOutDeg[r] + j, own + j);
    nextOut[r] = own + (isEndpoint[r] ? nEj : 0);
  }
  for (let v = 0; v < N; v++) {
    if (!direct[v]) continue;
    const link = t.inChannels[t.inStart[v]];
    const from = t.chSrc[link];
    for (let j = 0; j < nEj; j++) set(from, p.rOutDeg[from] + (1 + p.attachSlot[v]) * nEj + j, j === 0 ? channelOut(link) : nextOut[from]++);
  }
  return { inLane, outLane, inLanes, outLanes };
}

/** An allocator's request matrix in BookSim's numbering (see laneGeometry). */
export interface AllocatorGeometry {
  readonly inIndex: Int32Array;
  readonly outIndex: Int32Array;
  readonly side: Int32Array;
  readonly inputs: Int32Array;
  readonly outputs: Int32Array;
}

/**
 * An allocator's request matrix in lanes: per router, its local request index (input `li·width + x`,
 * output `lo·width + x`, or input `x·nIn + li` under `shuffled`, BookSim's vc_shuffle_requests)
 * mapped to the same index over lanes. Indexed from the allocator's per-router bases (rInStart·width,
 * rOutStart·outWidth), which are the bases the engine passes to `allocate`. `side[rOutStart[r]·outWidth]`
 * is router r's square: BookSim sizes each router's allocator by its own ports (a fat tree's top
 * routers have half the others'); `inputs` and `outputs` at the same index its inputs and outputs
 * (BookSim's `_inputs` and `_outputs` of the allocator, over which max_size and loa rotate).
 */
export function laneGeometry(
  lanes: PortLanes,
  rInStart: Int32Array,
  rOutStart: Int32Array,
  inWidth: number,
  outWidth: number,
  shuffled: boolean,
): AllocatorGeometry {
  const N = rInStart.length - 1;
  const inIndex = new Int32Array(rInStart[N] * inWidth);
  const outIndex = new Int32Array(rOutStart[N] * outWidth);
  const side = new Int32Array(rOutStart[N] * outWidth + 1);
  const inputs = new Int32Array(rOutStart[N] * outWidth + 1);
  const outputs = new Int32Array(rOutStart[N] * outWidth + 1);
  for (let r = 0; r < N; r++) {
    const nIn = rInStart[r + 1] - rInStart[r];
    for (let k = 0; k < nIn * inWidth; k++) {
      const li = shuffled ? k % nIn : Math.floor(k / inWidth);
      const x = shuffled ? Math.floor(k / nIn) : k % inWidth;
      const lane = lanes.inLane[rInStart[r] + li];
      inIndex[rInStart[r] * inWidth + k] = lane < 0 ? -1 : shuffled ? x * lanes.inLanes[r] + lane : lane * inWidth + x;
    }
    const nOut = rOutStart[r + 1] - rOutStart[r];
    for (let k = 0; k < nOut * outWidth; k++) {
      const lane = lanes.outLane[rOutStart[r] + Math.floor(k / outWidth)];
      outIndex[rOutStart[r] * outWidth + k] = lane < 0 ? -1 : lane * outWidth + (k % outWidth);
    }
    side[rOutStart[r] * outWidth] = Math.max(lanes.inLanes[r] * inWidth, lanes.outLanes[r] * outWidth);
    inputs[rOutStart[r] * outWidth] = lanes.inLanes[r] * inWidth;
    outputs[rOutStart[r] * outWidth] = lanes.outLanes[r] * outWidth;
  }
  return { inIndex, outIndex, side, inputs, outputs };
}
