/**
 * SimGrid platform XML (v4.1), out and in. Export: a torus, a k-ary fat tree or a dragonfly with
 * `wiring=simgrid` as SimGrid's own `<cluster topology="TORUS|FAT_TREE|DRAGONFLY">`; any other
 * topology as an explicit `<zone routing="Full">` of hosts (one per endpoint), one link per channel,
 * and one route per ordered pair of endpoints along the topology's default routing (so SimGrid
 * routes exactly as Meshwork does). Import: the three cluster forms become the Meshwork families (a
 * DRAGONFLY with one chassis per group and one link per pair; SimGrid's chassis level has no
 * Meshwork family). Zones are not imported (docs/interop.md).
 */
import { InputError, LimitError } from '../util/errors.js';
import { parseBandwidth, parseTime } from '../util/units.js';
import type { Topology } from '../topology/graph.js';
import { resolveRouting } from '../routing/registry.js';
import { makeRouteBuffers } from '../routing/types.js';
import { parseXml, xmlAttributes } from './xml.js';

/** Largest endpoint count exported as an explicit zone (routes grow as N²). */
export const MAX_SIMGRID_ZONE_HOSTS = 1024;

const HEADER = `<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n<platform version="4.1">\n`;

/** The SimGrid cluster spelling of a Meshwork torus or fat tree, or undefined. */
function clusterOf(t: Topology): { topology: string; params: string } | undefined {
  const p = t.params as { dims?: number[]; wrap?: boolean | boolean[]; k?: number; levels?: number };
  const uniform = (): boolean => {
    for (let c = 1; c < t.numChannels; c++) if (t.chBandwidth[c] !== t.chBandwidth[0] || t.chLatency[c] !== t.chLatency[0]) return false;
    return true;
  };
  if (t.family === 'torus' && p.dims && uniform()) return { topology: 'TORUS', params: p.dims.join(',') };
  if (t.family === 'fattree' && p.k && p.levels && uniform()) {
    const L = p.levels;
    const k = p.k;
    const list = (first: number, rest: number): string => [first, ...Array<number>(L - 1).fill(rest)].join(',');
    // Zahavi's PGFT(L; down k..k; up 1,k..k; parallel 1..1) is the k-ary L-tree.
    return { topology: 'FAT_TREE', params: `${L};${list(k, k)};${list(1, k)};${list(1, 1)}` };
  }
  const d = t.params as { a?: number; p?: number; g?: number; wiring?: string };
  // Groups, chassis per group, routers per chassis (one link each), hosts per router.
  if (t.family === 'dragonfly' && d.wiring === 'simgrid' && uniform()) return { topology: 'DRAGONFLY', params: `${d.g},1;1,1;${d.a},1;${d.p}` };
  return undefined;
}

export function topologyToSimgrid(t: Topology): string {
  const cluster = clusterOf(t);
  if (cluster) {
    return `${HEADER}  <zone id="world" routing="Full">\n    <cluster ${xmlAttributes({
      id: 'meshwork',
      prefix: 'host',
      suffix: '',
      radical: `0-${t.numEndpoints - 1}`,
      speed: '1Gf',
      bw: `${t.chBandwidth[0]}Bps`,
      lat: `${t.chLatency[0]}s`,
      topology: cluster.topology,
      topo_parameters: cluster.params,
    })}/>\n  </zone>\n</platform>\n`;
  }
  if (t.numEndpoints > MAX_SIMGRID_ZONE_HOSTS) throw new LimitError('format', `simgrid zone of ${t.numEndpoints} hosts`, `${MAX_SIMGRID_ZONE_HOSTS} hosts (one route per ordered pair)`);
  const routing = resolveRouting(t, { engine: 'flow' });
  const buf = makeRouteBuffers(routing.maxHops);
  const lines = [`${HEADER}  <zone id="meshwork" routing="Full">`];
  for (let r = 0; r < t.numEndpoints; r++) lines.push(`    <host id="host${r}" speed="1Gf"/>`);
  for (let c = 0; c < t.numChannels; c++) lines.push(`    <link ${xmlAttributes({ id: `c${c}`, bandwidth: `${t.chBandwidth[c]}Bps`, latency: `${t.chLatency[c]}s` })}/>`);
  for (let a = 0; a < t.numEndpoints; a++) {
    for (let b = 0; b < t.numEndpoints; b++) {
      if (a === b) continue;
      const hops = routing.route(t.endpoints[a], t.endpoints[b], 0, buf);
      const ctn = Array.from(buf.channels.subarray(0, hops), (c) => `<link_ctn id="c${c}"/>`).join('');
      lines.push(`    <route src="host${a}" dst="host${b}" symmetrical="NO">${ctn}</route>`);
    }
  }
  lines.push('  </zone>', '</platform>', '');
  return lines.join('\n');
}

/** The Meshwork spec of a platform's first TORUS, FAT_TREE or DRAGONFLY cluster. */
export function simgridClusterSpec(text: string, field = 'simgrid'): string {
  let spec: string | undefined;
  parseXml(
    text,
    {
      open: (name, a) => {
        if (name !== 'cluster' || spec !== undefined) return;
        const where = `${field}.cluster`;
        const kind = (a.topology ?? 'FLAT').toUpperCase();
        const bw = `bw=${parseBandwidth(a.bw ?? '', `${where}.bw`)}Bps`;
        const lat = `lat=${parseTime(a.lat ?? '', `${where}.lat`)}s`;
        const params = a.topo_parameters ?? '';
        if (kind === 'TORUS') {
          if (!/^\d+(,\d+)*$/.test(params)) throw new InputError(`${where}.topo_parameters`, params, 'dimension sizes such as 4,4,4');
          spec = `torus:${params.split(',').join('x')},${bw},${lat}`;
        } else if (kind === 'FAT_TREE') {
          const m = /^(\d+);([\d,]+);([\d,]+);([\d,]+)$/.exec(params);
          const L = Number(m?.[1]);
          const down = m?.[2].split(',').map(Number) ?? [];
          const up = m?.[3].split(',').map(Number) ?? [];
          const par = m?.[4].split(',').map(Number) ?? [];
          const k = down[0];
          const kary = m && down.length === L && up.length === L && par.length === L && down.every((d) => d === k) && up[0] === 1 && up.slice(1).every((u) => u === k) && par.every((x) => x === 1);
          if (!kary) throw new InputError(`${where}.topo_parameters`, params, 'a k-ary L-tree, "L;k,..,k;1,k,..,k;1,..,1" (other PGFTs have no Meshwork family)');
          spec = `fattree:k=${k},levels=${L},${bw},${lat}`;
        } else if (kind === 'DRAGONFLY') {
          const m = /^(\d+),1;1,1;(\d+),1;(\d+)$/.exec(params);
          const [groups, routers] = [Number(m?.[1]), Number(m?.[2])];
          if (!m || groups < 2 || groups > routers) {
            throw new InputError(`${where}.topo_parameters`, params, '"G,1;1,1;A,1;P": one chassis per group, one link per router pair and group pair, 2 <= G <= A (other shapes have no Meshwork dragonfly)');
          }
          spec = `dragonfly:a=${routers},p=${m[3]},h=1,g=${groups},wiring=simgrid,${bw},${lat}`;
        } else throw new InputError(`${where}.topology`, a.topology, 'TORUS, FAT_TREE or DRAGONFLY (FLAT clusters are not imported)');
      },
    },
    field,
  );
  if (spec === undefined) throw new InputError(field, 'no <cluster>', 'a platform with a TORUS, FAT_TREE or DRAGONFLY <cluster>');
  return spec;
}
