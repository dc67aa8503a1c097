/**
 * Finite fields GF(q), q = p^n a prime power, as addition and multiplication tables over the
 * integers 0..q−1 (element = base-p digits of the polynomial's coefficients). Slim Fly and PolarFly
 * are defined over GF(q); tables keep their generators to array lookups. q is limited so the two
 * q×q tables stay small (2 × 2 MiB at the limit).
 */
import { InputError } from '../util/errors.js';

export const MAX_FIELD_ORDER = 1024;

export interface FiniteField {
  readonly q: number;
  readonly p: number;
  readonly n: number;
  add(a: number, b: number): number;
  mul(a: number, b: number): number;
  neg(a: number): number;
  /** Multiplicative inverse of a non-zero element. */
  inv(a: number): number;
  /** A primitive element (generator of the multiplicative group). */
  readonly primitive: number;
  /** primitive^e for e >= 0. */
  power(e: number): number;
}

/** [p, n] with q = p^n, or undefined when q is not a prime power. */
export function primePower(q: number): [number, number] | undefined {
  if (!Number.isInteger(q) || q < 2) return undefined;
  let p = 2;
  while (p * p <= q && q % p !== 0) p++;
  if (q % p !== 0) p = q;
  let n = 0;
  let rest = q;
  while (rest % p === 0) {
    rest /= p;
    n++;
  }
  return rest === 1 ? [p, n] : undefined;
}

export function finiteField(q: number, field = 'q'): FiniteField {
  const pp = primePower(q);
  if (!pp || q > MAX_FIELD_ORDER) throw new InputError(field, q, `a prime power from 2 to ${MAX_FIELD_ORDER} (e.g. 5, 7, 8, 9, 11, 13, 16)`);
  const [p, n] = pp;
  const addT = new Uint16Array(q * q);
  const mulT = new Uint16Array(q * q);
  for (let a = 0; a < q; a++) {
    for (let b = 0; b < q; b++) {
      let sum = 0;
      for (let d = 0, w = 1, x = a, y = b; d < n; d++, w *= p, x = Math.floor(x / p), y = Math.floor(y / p)) sum += (((x % p) + (y % p)) % p) * w;
      addT[a * q + b] = sum;
    }
  }
  // Multiplication modulo a monic degree-n polynomial for which x is primitive (found by search,
  // smallest first, so the field and its primitive element are fixed for every q).
  for (let poly = 0; poly < q; poly++) {
    if (!fillProducts(mulT, q, p, n, poly)) continue;
    // For n > 1 the element "x" has the integer code p; a prime field takes its smallest generator.
    const generator = n === 1 ? smallestGenerator(mulT, q) : p;
    if (orderOf(mulT, q, generator) === q - 1) return makeField(q, p, n, addT, mulT, generator);
  }
  throw new Error(`no primitive polynomial found for GF(${q})`);
}

/** Fills mulT for multiplication modulo x^n − (low coefficients `poly`); false if some product is zero wrongly (reducible). */
function fillProducts(mulT: Uint16Array, q: number, p: number, n: number, poly: number): boolean {
  const reduce = new Int32Array(n); // x^n = sum reduce[d] x^d
  for (let d = 0, x = poly; d < n; d++, x = Math.floor(x / p)) reduce[d] = (p - (x % p)) % p;
  const a = new Int32Array(2 * n);
  for (let u = 0; u < q; u++) {
    for (let v = u; v < q; v++) {
      a.fill(0);
      for (let i = 0, x = u; i < n; i++, x = Math.floor(x / p)) {
        for (let j = 0, y = v; j < n; j++, y = Math.floor(y / p)) a[i + j] = (a[i + j] + (x % p) * (y % p)) % p;
      }
      for (let k = 2 * n - 2; k >= n; k--) {
        const c = a[k];
        if (c === 0) continue;
        a[k] = 0;
        for (let d = 0; d < n; d++) a[k - n + d] = (a[k - n + d] + c * reduce[d]) % p;
      }
      let value = 0;
      for (let d = n - 1; d >= 0; d--) value = value * p + a[d];
      if (value === 0 && u !== 0 && v !== 0) return false;
      mulT[u * q + v] = value;
      mulT[v * q + u] = value;
    }
  }
  return true;
}

function orderOf(mulT: Uint16Array, q: number, g: number): number {
  let x = g;
  for (let k = 1; k < q; k++) {
    if (x === 1) return k;
    x = mulT[x * q + g];
  }
  return -1;
}

function smallestGenerator(mulT: Uint16Array, q: number): number {
  for (let g = 2; g < q; g++) if (orderOf(mulT, q, g) === q - 1) return g;
  return 1; // GF(2): the only non-zero element
}

function makeField(q: number, p: number, n: number, addT: Uint16Array, mulT: Uint16Array, primitive: number): FiniteField {
  const powers = new Uint16Array(q - 1);
  powers[0] = 1;
  for (let e = 1; e < q - 1; e++) powers[e] = mulT[powers[e - 1] * q + primitive];
  const negT = new Uint16Array(q);
  const invT = new Uint16Array(q);
  for (let a = 0; a < q; a++) {
    for (let b = 0; b < q; b++) {
      if (addT[a * q + b] === 0) negT[a] = b;
      if (mulT[a * q + b] === 1) invT[a] = b;
    }
  }
  return {
    q, p, n, primitive,
    add: (a, b) => addT[a * q + b],
    mul: (a, b) => mulT[a * q + b],
    neg: (a) => negT[a],
    inv: (a) => invT[a],
    power: (e) => powers[e % (q - 1)],
  };
}
