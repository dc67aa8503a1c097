/**
 * Step planner for seed 003's contention-free pipelined broadcast on a two-level switch network
 * (spec/seed002_003_ibm.md part B). The seed has claim 1 only; the schedule is the spec's
 * reconstruction R2 (B3, preferred) or R1 (B4, strict send-once). Pure: it returns the transfers
 * of every unit step, which the algorithm file turns into a schedule and the tests audit.
 *
 * Model (B3): S leaves of m hosts, root R on leaf 0 (leaves are relabelled so the root's leaf comes
 * first), P packets. One step = one packet over one node→node path. Per leaf two selected nodes
 * A_s, B_s alternate roles every step (C7): first(s, t) = A_s when t is even, else B_s. The other
 * non-root hosts form a chain C_s,1..C_s,q (q = m−2, or m−3 on the root's leaf).
 */

export type TransferPhase = 'root' | 'inter' | 'intra' | 'sink';

export interface Transfer {
  readonly step: number;
  /** Ranks. */
  readonly from: number;
  readonly to: number;
  readonly packet: number;
  readonly phase: TransferPhase;
}

export interface TwoLevelLayout {
  readonly leaves: number;
  readonly hosts: number;
  /** Rank of host h on leaf s (original numbering). */
  rankOf(leaf: number, host: number): number;
}

/** Roles of one leaf in chain order (leaf index s counts from the root's leaf). */
export interface LeafRoles {
  readonly leaf: number;
  readonly a: number;
  readonly b: number;
  readonly chain: readonly number[];
}

export interface TwoLevelPlan {
  readonly transfers: Transfer[];
  /** Number of steps T (steps are numbered 0..T−1). */
  readonly steps: number;
  readonly roles: readonly LeafRoles[];
  /** Leaf (original index) of each rank. */
  readonly leafOfRank: Int32Array;
}

/** Leaf s holds ranks s·m .. s·m+m−1 (the layout assumed until a twolevel generator numbers hosts itself). */
export function blockLayout(leaves: number, hosts: number): TwoLevelLayout {
  return { leaves, hosts, rankOf: (s, h) => s * hosts + h };
}

export function leafRoles(layout: TwoLevelLayout, root: number): LeafRoles[] {
  const { leaves: S, hosts: m } = layout;
  let rootLeaf = -1;
  for (let s = 0; s < S && rootLeaf < 0; s++) for (let h = 0; h < m; h++) if (layout.rankOf(s, h) === root) rootLeaf = s;
  if (rootLeaf < 0) throw new RangeError(`root ${root} is not a host of the layout`);
  const roles: LeafRoles[] = [];
  for (let i = 0; i < S; i++) {
    const leaf = (rootLeaf + i) % S;
    const hosts = Array.from({ length: m }, (_, h) => layout.rankOf(leaf, h)).filter((r) => r !== root);
    roles.push({ leaf, a: hosts[0], b: hosts[1], chain: hosts.slice(2) });
  }
  return roles;
}

const roundUpEven = (q: number): number => q + (q & 1);

/**
 * R2 (B3 rules 1–5) and R1 (B4). `variant` 'r2': a leaf forwards downstream from its entry node one
 * step after receiving; 'r1': the leaf's sink forwards downstream at its next "second" step.
 */
export function planTwoLevel(layout: TwoLevelLayout, root: number, packets: number, variant: 'r1' | 'r2'): TwoLevelPlan {
  const S = layout.leaves;
  const roles = leafRoles(layout, root);
  const transfers: Transfer[] = [];
  const first = (s: number, t: number): number => (t % 2 === 0 ? roles[s].a : roles[s].b);
  const second = (s: number, t: number): number => (t % 2 === 0 ? roles[s].b : roles[s].a);
  for (let k = 0; k < packets; k++) {
    // tau: step at which leaf s receives packet k (its entry node E = first(s, tau)).
    let tau = k;
    let upstream = root;
    for (let s = 0; s < S; s++) {
      const e = first(s, tau);
      const x = second(s, tau);
      transfers.push({ step: tau, from: upstream, to: e, packet: k, phase: s === 0 ? 'root' : 'inter' });
      const chain = roles[s].chain;
      const q = chain.length;
      const qs = roundUpEven(q);
      // Intra-leaf chain from E to the sink X, X receiving last (C4, C6) on a step where it is second.
      if (q === 0) transfers.push({ step: tau + 2, from: e, to: x, packet: k, phase: 'sink' });
      else {
        transfers.push({ step: tau + 2, from: e, to: chain[0], packet: k, phase: 'intra' });
        for (let h = 1; h < q; h++) transfers.push({ step: tau + 2 + h, from: chain[h - 1], to: chain[h], packet: k, phase: 'intra' });
        transfers.push({ step: tau + 2 + qs, from: chain[q - 1], to: x, packet: k, phase: 'sink' });
      }
      if (variant === 'r2') {
        upstream = e;
        tau += 1;
      } else {
        upstream = x;
        tau += 4 + qs;
      }
    }
  }
  transfers.sort((p, q) => p.step - q.step || p.from - q.from);
  const steps = transfers.reduce((t, x) => Math.max(t, x.step + 1), 0);
  const leafOfRank = new Int32Array(layout.leaves * layout.hosts);
  for (let s = 0; s < layout.leaves; s++) for (let h = 0; h < layout.hosts; h++) leafOfRank[layout.rankOf(s, h)] = s;
  return { transfers, steps, roles, leafOfRank };
}

/** Completion time of R2 from spec B3 (S ≥ 1, m ≥ 3): max(P + 2 + q0*, P + S + 1 + q*). */
export function r2Steps(S: number, m: number, P: number): number {
  const q0 = roundUpEven(m - 3);
  const q = roundUpEven(m - 2);
  return S === 1 ? P + 2 + q0 : Math.max(P + 2 + q0, P + S + 1 + q);
}
