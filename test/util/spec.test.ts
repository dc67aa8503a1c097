/** The spec grammar's number values (util/spec.ts Spec.number): decimal only, as every CLI option. */
import { describe, expect, it } from 'vitest';
import { Spec } from '../../src/util/spec.js';

describe('Spec.number', () => {
  it("refuses what Number() reads but a user did not mean as decimal (taper=0x2 built a taper of 2; osprob=0x1 ran)", () => {
    expect(() => Spec.parse('fattree:k=4,levels=2,taper=0x2', 'topology').number('taper', { min: 1 })).toThrow('topology.taper: got "0x2"; accepted: a number >= 1');
    expect(() => Spec.parse('noise:osprob=0b1', 'noise').number('osprob', { min: 0, max: 1 })).toThrow('noise.osprob: got "0b1"; accepted: a number from 0 to 1');
    expect(() => Spec.parse('noise:osprob=Infinity', 'noise').number('osprob', { min: 0 })).toThrow('noise.osprob: got "Infinity"; accepted: a number >= 0');
    expect(() => Spec.parse('custom:peak=0', 'device').number('peak', { min: 0, exclusiveMin: true })).toThrow('device.peak: got "0"; accepted: a number > 0');
  });

  it('reads decimals as Number() does', () => {
    const spec = Spec.parse('x:a=2.5,b=1e-3,c=-4,d=.5', 'x');
    expect([spec.number('a'), spec.number('b'), spec.number('c'), spec.number('d')]).toEqual([2.5, 1e-3, -4, 0.5]);
  });
});

describe('Spec.parse empty items', () => {
  it('refuses a doubled or stray comma instead of recording it in the spec (torus:4x4,, built a torus)', () => {
    expect(() => Spec.parse('torus:4x4,,', 'topology')).toThrow('topology: got "torus:4x4,,"; accepted: comma-separated items, none empty');
    expect(() => Spec.parse('torus:,4x4', 'topology')).toThrow('accepted: comma-separated items, none empty');
    expect(() => Spec.parse('torus:', 'topology')).toThrow('accepted: comma-separated items, none empty');
    expect(Spec.parse('torus:4x4, bw=1GBps', 'topology').params.get('bw')).toBe('1GBps');
  });
});
