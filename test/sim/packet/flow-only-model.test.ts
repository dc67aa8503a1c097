/**
 * The flow model's CM02 choices (latencyRule 'before-transfer', sharing 'cm02', its TCP-gamma bound) and SMPI's message
 * envelope (envelopeBytes) have no packet-level meaning: a packet run records them as not applied and runs as with the defaults (docs/packet.md,
 * "Flow-only model choices"). `--preset simgrid` selects all three, so this is what a packet run under
 * that preset does.
 */
import { describe, expect, it } from 'vitest';
import { buildSchedule, buildTopology, flowPreset, simulate } from '../../../src/index.js';

describe('flow-only model choices at packet level', () => {
  // docs/flow.md, "Comparing with SimGrid SMPI": the 1 KiB binomial broadcast is where before-transfer
  // moves the flow engine (the root's near and far children no longer share its link at once).
  const t = buildTopology('torus:4x4x4,bw=10GBps,lat=100ns');
  const schedule = buildSchedule({ collective: 'broadcast', algorithm: 'binomial', topology: t, size: 1024, root: 0, peer: 1 });
  const simgrid = flowPreset('simgrid').model;
  const withDefaults = { ...simgrid, latencyRule: 'on-delivery', sharing: 'maxmin', networkModel: 'ideal', envelopeBytes: 0 } as const;

  it('the flow engine applies them: the makespan moves', () => {
    const asked = simulate({ topology: t, schedule, engine: 'flow', model: simgrid });
    const plain = simulate({ topology: t, schedule, engine: 'flow', model: withDefaults });
    expect(asked.model.latencyRule).toBe('before-transfer');
    expect(Math.abs(asked.makespan_s / plain.makespan_s - 1)).toBeGreaterThan(0.05);
  });

  it('the packet engine records them as not applied and its makespan is that of the defaults', () => {
    const asked = simulate({ topology: t, schedule, engine: 'packet', model: simgrid });
    const plain = simulate({ topology: t, schedule, engine: 'packet', model: withDefaults });
    expect(asked.makespan_s).toBe(plain.makespan_s);
    expect([asked.model.latencyRule, asked.model.sharing, asked.model.envelopeBytes, asked.model.protocol, asked.model.preset]).toEqual(['on-delivery', 'maxmin', 0, 'smpi', 'simgrid']);
    const notApplied = asked.model.notApplied as Record<string, string>;
    expect(Object.keys(notApplied)).toEqual(['latencyRule', 'sharing', 'networkModel', 'envelopeBytes']);
    expect(notApplied.networkModel).toMatch(/^cm02: not applied: /);
    expect(notApplied.latencyRule).toMatch(/^before-transfer: not applied: .*latency is physical/);
    expect(notApplied.sharing).toMatch(/^cm02: not applied: /);
    expect(notApplied.envelopeBytes).toMatch(/^16: not applied: /);
    expect(plain.model.notApplied).toBeUndefined();
  });

  it("under --preset simgrid-smpi also SMPI's network model, with its corrections recorded as none", () => {
    const smpi = flowPreset('simgrid-smpi').model;
    const asked = simulate({ topology: t, schedule, engine: 'packet', model: smpi });
    const plain = simulate({ topology: t, schedule, engine: 'packet', model: withDefaults });
    expect(asked.makespan_s).toBe(plain.makespan_s);
    expect([asked.model.networkModel, asked.model.bandwidthFactors, asked.model.weightS, asked.model.tcpGamma, asked.model.crossTraffic]).toEqual(['ideal', null, 0, null, 0]);
    expect((asked.model.notApplied as Record<string, string>).networkModel).toMatch(/^smpi: not applied: /);
  });
});
