/**
 * One claim re-run alone (the Studio's Seeds view): the smallest study that produces it is its
 * seed's run, and the claim it gives is the one `meshwork reproduce` gives, verdict included.
 */
import { describe, expect, it } from 'vitest';
import { claimRerunScope, rerunClaim, runReproductions } from '../../src/analysis/reproduce/index.js';
import { InputError } from '../../src/util/errors.js';

describe('rerunClaim', () => {
  it("gives seed 003's claims exactly as the seed's quick reproduction does", async () => {
    const whole = (await runReproductions(['003'], { quick: true })).seeds[0].result.claims;
    expect(whole.length).toBeGreaterThan(2);
    for (const claim of [whole[0], whole[whole.length - 1]]) {
      const fractions: number[] = [];
      const again = await rerunClaim(claim.id, { quick: true, onProgress: (f) => fractions.push(f) });
      expect(again.claim).toEqual(claim);
      expect(again).toMatchObject({ seed: '003', command: 'reproduce 003 --quick', scope: claimRerunScope('003') });
      expect(fractions.at(-1)).toBe(1);
    }
  });

  it('refuses an id that names no seed, or no claim of its seed, in one line', async () => {
    await expect(rerunClaim('table1', { quick: true })).rejects.toThrow(new InputError('claim', 'table1', 'a claim id of meshwork reproduce, starting with its seed (000., 001., 002., 003., 004.)'));
    await expect(rerunClaim('003.nothing', { quick: true })).rejects.toThrow(/^claim: got "003.nothing"; accepted: a claim of seed 003 \(\d+ claims, e.g. 003\./);
  });
});
