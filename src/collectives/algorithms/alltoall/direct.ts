/**
 * alltoall `direct`: ASTRA-sim's native `direct` all-to-all (its `AllToAll` algorithm, astra-sim
 * @ 518bd513, system/astraccl/native_collectives/collective_algorithm/AllToAll.cc; `directW` in the
 * system configuration's all-to-all-implementation). Rank r sends one block to each of r + 1,
 * r + 2, …, r + P − 1 in that order and receives from r − 1, r − 2, …; at most `window` sends are
 * started before the first receive, and each receive that completes starts the next send. ASTRA-sim's
 * plain `direct` (no number) has a window of P − 1: every send at once (`window=0` here).
 *
 * ASTRA-sim starts the next send on whichever receive completes first (AllToAll::run: each
 * PacketReceived inserts the packet for the next receiver in order), so the i-th arrival starts send
 * window + i. Messages need not arrive in the order they were sent (on a ring farther sources are
 * more hops away, and a k-hop message may go the short way round while a (k − 1)-hop one queues), so
 * with a window below P − 1 exchange k (send to r + k, then receive from r − k, as ASTRA-sim posts
 * them together) runs on a stream of its own and signals its arrival to stream 0 (a zero-byte
 * message to itself), which counts them and lets exchange window + i go at the i-th. The first
 * `window` sends leave at once, each paying α on its own stream, as ASTRA-sim's endpoint delays
 * overlap; so does plain `direct`, every exchange on a stream of its own with no signals (one stream
 * would leave its k-th send k α after the start, ASTRA-sim one endpoint delay). Above MAX_STREAMS − 1 peers (no stream per exchange) receives are posted with their sends
 * on one stream and waited for in posting order, the same wherever messages arrive in the order they
 * were sent (a full mesh, a switch).
 * Non-blocking sends keep it safe under rendezvous.
 */
import { registerAlgorithm } from '../../registry.js';
import { MAX_STREAMS, RECV, SEND } from '../../schedule.js';
import { mod } from '../common.js';

/** Sends started before the first receive: `window` (0 = all), at most P − 1 (ASTRA-sim's min(window, P − 1)). */
export function directWindow(window: number, n: number): number {
  return window === 0 ? n - 1 : Math.min(window, n - 1);
}

/** The tags of the zero-byte arrival signals and (GO + k) of exchange k's go signal; the blocks travel with tag 0. */
const ARRIVED = 1;
const GO = 2;

/** Whether a window runs with a stream per receive (arrivals counted in the order they happen). */
const countsArrivals = (window: number, n: number): boolean => window < n - 1 && n <= MAX_STREAMS;
/** Whether plain direct (every send at once) runs an exchange per stream, so that their α overlap. */
const streamPerExchange = (window: number, n: number): boolean => window === n - 1 && n > 1 && n <= MAX_STREAMS;

registerAlgorithm({
  name: 'direct',
  collective: 'alltoall',
  description: "ASTRA-sim's direct all-to-all: sends to rank+1, rank+2, ..., at most `window` ahead of the receives",
  supportsText: 'any rank count and topology',
  source: 'ASTRA-sim (native direct all-to-all, AllToAll.cc @ 518bd513)',
  params: [{ key: 'window', kind: 'int', default: 0, min: 0, description: "sends in flight before the first receive (ASTRA-sim's directW); 0 = all P-1 at once (its plain direct)" }],
  supports: () => undefined,
  comparedWhenNamed: "ASTRA-sim's direct all-to-all, reproduced for its timing: compared when named (--include direct or direct:window=W)",
  estimate(ctx) {
    const n = ctx.ranks;
    // With arrivals counted: the copy, per exchange an isend, a receive, its arrival signal (sent and
    // received) and a waitall, per exchange past the window a go signal (sent and received); else the
    // copy, P − 1 irecvs, isends and waits, and the waitall.
    const window = directWindow(Number(ctx.params.window), n);
    if (countsArrivals(window, n)) return { ops: n * (1 + 5 * (n - 1) + 2 * (n - 1 - window)), messages: n * (2 * (n - 1) + (n - 1 - window)) };
    // An exchange per stream: the copy, then per exchange an isend, a receive and a waitall.
    if (streamPerExchange(window, n)) return { ops: n * (1 + 3 * (n - 1)), messages: n * (n - 1) };
    return { ops: n * (1 + 3 * (n - 1) + (n > 1 ? 1 : 0)), messages: n * (n - 1) };
  },
  build(ctx, newBuilder) {
    const n = ctx.ranks;
    const window = directWindow(Number(ctx.params.window), n);
    const b = newBuilder();
    if (countsArrivals(window, n)) {
      const none = b.region(RECV, 0, 0);
      for (let r = 0; r < n; r++) {
        b.copy(r, b.block(SEND, r), b.block(RECV, r));
        // Exchange k on stream k: its send (after its go signal past the window), its receive, the arrival signal.
        for (let k = 1; k < n; k++) {
          if (k > window) b.recv(r, r, none, GO + k, k);
          b.isend(r, mod(r + k, n), b.block(SEND, mod(r + k, n)), 0, k);
          b.recv(r, mod(r - k, n), b.block(RECV, mod(r - k, n)), 0, k);
          b.send(r, r, none, ARRIVED, k);
          b.waitall(r, k);
        }
        // Stream 0 counts the arrivals, whichever they are: the i-th lets exchange window + i go.
        for (let k = window + 1; k < n; k++) {
          b.recv(r, r, none, ARRIVED);
          b.send(r, r, none, GO + k);
        }
        // The last `window` arrivals let none go; their signals (and so every receive) end here.
        for (let i = 0; i < window; i++) b.recv(r, r, none, ARRIVED);
      }
      return b.finish();
    }
    if (streamPerExchange(window, n)) {
      for (let r = 0; r < n; r++) {
        b.copy(r, b.block(SEND, r), b.block(RECV, r));
        // Exchange k on stream k: the block for r + k out, the one from r − k in, all at once.
        for (let k = 1; k < n; k++) {
          b.isend(r, mod(r + k, n), b.block(SEND, mod(r + k, n)), 0, k);
          b.recv(r, mod(r - k, n), b.block(RECV, mod(r - k, n)), 0, k);
          b.waitall(r, k);
        }
      }
      return b.finish();
    }
    for (let r = 0; r < n; r++) {
      b.copy(r, b.block(SEND, r), b.block(RECV, r));
      // The k-th exchange: the block for r + k out, the one from r − k in.
      const start = (k: number): number => {
        b.isend(r, mod(r + k, n), b.block(SEND, mod(r + k, n)));
        return b.irecv(r, mod(r - k, n), b.block(RECV, mod(r - k, n)));
      };
      const receives: number[] = [];
      for (let k = 1; k <= window; k++) receives.push(start(k));
      for (let k = 1; k < n; k++) {
        b.wait(r, receives[k - 1]);
        if (k + window < n) receives.push(start(k + window));
      }
      if (n > 1) b.waitall(r);
    }
    return b.finish();
  },
});
