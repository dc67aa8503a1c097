/**
 * SimGrid platform XML (v4.1), out and in. Export: a torus, a k-ary fat tree or a dragonfly with
 * `wiring=simgrid` as SimGrid's own `<cluster topology="TORUS|FAT_TREE|DRAGONFLY">`; any other
 * topology as an explicit `<zone routing="Full">` of hosts (one per endpoint), one link per channel,
 * and one route per ordered pair of endpoints along the topology's default routing (so SimGrid
 * routes exactly as Meshwork does). Import (`simgridTopology`): a platform of one cluster; a TORUS,
 * a k-ary FAT_TREE and a one-chassis single-link DRAGONFLY become the Meshwork families, any other
 * FAT_TREE or DRAGONFLY SimGrid's own (`simgrid-fattree`, `simgrid-dragonfly`: its graph and routes,
 * topology/simgrid-zones.ts), a FLAT cluster a crossbar with its backbone. Every construct not modelled is refused by name, never ignored (docs/interop.md).
 */
import { InputError, LimitError } from '../util/errors.js';
import { checkPlatformConfig } from '../sim/flow/simgrid-cfg.js';
import { parseBandwidth, parseTime } from '../util/units.js';
import { loopbackOf, type Topology } from '../topology/graph.js';
import { resolveRouting } from '../routing/registry.js';
import { makeRouteBuffers, refusePartialRoutes } from '../routing/types.js';
import { parseXml, xmlAttributes } from './xml.js';
import { buildTopology, fatpipeChannels } from '../topology/registry.js';
import { applyHostList } from '../topology/mapping.js';
import { isZonePlatform, simgridZoneTopology } from './simgrid-platform.js';
import { resolveHostfile, type SimgridHostfile } from './hostfile.js';
import type { RoutingOptions } from '../routing/registry.js';

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
  // SimGrid's own shapes (simgrid-zones.ts) go back as the cluster they were read from.
  const sg = t.params as { levels?: number; down?: number[]; up?: number[]; links?: number[]; groups?: number; chassis?: number; routers?: number; nodes?: number; blue?: number; black?: number; green?: number };
  if (t.family === 'simgrid-fattree' && sg.down && sg.up && sg.links && uniform()) return { topology: 'FAT_TREE', params: `${sg.levels};${sg.down.join(',')};${sg.up.join(',')};${sg.links.join(',')}` };
  if (t.family === 'simgrid-dragonfly' && uniformPerLink(t, { terminal: 1, green: sg.green ?? 1, black: sg.black ?? 1, blue: sg.blue ?? 1 })) {
    return { topology: 'DRAGONFLY', params: `${sg.groups},${sg.blue};${sg.chassis},${sg.black};${sg.routers},${sg.green};${sg.nodes}` };
  }
  return undefined;
}

/** Every channel at channel 0's latency and at its bandwidth × the channel's class's link count (channel 0: host 0's link, count 1). */
function uniformPerLink(t: Topology, count: Readonly<Record<string, number>>): boolean {
  for (let c = 0; c < t.numChannels; c++) {
    const n = count[t.className(c)];
    if (n === undefined || t.chBandwidth[c] !== t.chBandwidth[0] * n || t.chLatency[c] !== t.chLatency[0]) return false;
  }
  return true;
}

export interface SimgridExportOptions {
  /** Write an explicit `<zone routing="Full">` even when the topology is one of SimGrid's clusters. */
  readonly zone?: boolean;
  /** The routing whose routes a zone lists (default: the topology's default flow routing). */
  readonly routing?: RoutingOptions;
}

/** A cluster's loopback_bw and loopback_lat attributes for the topology's loopback (none without one). */
function loopbackAttributesOf(t: Topology): Record<string, string> {
  const loopback = loopbackOf(t);
  return loopback ? { loopback_bw: `${loopback.bandwidth}Bps`, loopback_lat: `${loopback.latency}s` } : {};
}

export function topologyToSimgrid(t: Topology, opts: SimgridExportOptions = {}): string {
  const cluster = opts.zone ? undefined : clusterOf(t);
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
      ...loopbackAttributesOf(t),
    })}/>\n  </zone>\n</platform>\n`;
  }
  // A zone's hosts would need self routes over their loopbacks, which the zone written does not list.
  if (loopbackOf(t)) throw new InputError('format', 'simgrid', 'a topology without loopbacks as an explicit zone (a SimGrid cluster keeps them: export without --simgrid-zone)');
  if (t.numEndpoints > MAX_SIMGRID_ZONE_HOSTS) throw new LimitError('format', `simgrid zone of ${t.numEndpoints} hosts`, `${MAX_SIMGRID_ZONE_HOSTS} hosts (one route per ordered pair)`);
  // The zone written routes host pairs over SHARED links: a self route or a FATPIPE link would be lost.
  if (t.explicitRoutes?.self || fatpipeChannels(t)) {
    throw new InputError('format', 'simgrid', 'a platform without self routes or FATPIPE links (the zone written routes pairs of hosts over SHARED links: use the platform file itself)');
  }
  const routing = resolveRouting(t, { ...opts.routing, engine: 'flow' });
  // SimGrid shares the links of the routes it is given.
  refusePartialRoutes(routing, 'sharing');
  const buf = makeRouteBuffers(routing.maxHops);
  // The routes listed are one routing's choices (a random tie's among them): the platform names it.
  const seed = routing.params.tie === 'random' ? `, seed ${String(routing.params.seed)}` : '';
  const lines = [`${HEADER}  <!-- meshwork: routes of ${routing.name}${seed} -->`, `  <zone id="meshwork" routing="Full">`];
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

/** One `<cluster>` as read: its kind, parameters and link attributes, validated. */
interface ClusterRead {
  readonly kind: 'TORUS' | 'FAT_TREE' | 'DRAGONFLY' | 'FLAT';
  readonly params: string;
  readonly hosts: number;
  /** Host names: prefix + number + suffix, the numbers those of `radical` in order ([first, last] ranges). */
  readonly prefix: string;
  readonly suffix: string;
  readonly radical: ReadonlyArray<readonly [number, number]>;
  readonly bw: number;
  readonly lat: number;
  /** Backbone of a FLAT cluster (bb_bw, bb_lat; shared by every flow in both directions), or undefined. */
  readonly backbone?: { readonly bw: number; readonly lat: number; readonly fatpipe: boolean };
  /** SHARED or FATPIPE links (one capacity for both directions); not on TORUS clusters. */
  readonly shared: boolean;
  /** limiter_link, bytes/s; not on TORUS clusters. */
  readonly limiter?: number;
  /** loopback_bw and loopback_lat (bytes/s, s), when either is positive (SimGrid then makes the loopback: sg_platf.cpp). */
  readonly loopback?: { readonly bw: number; readonly lat: number };
  readonly where: string;
}

/**
 * Elements a platform may hold besides its one cluster: the zone around it, properties and
 * configuration. Anything else (other clusters, hosts, links, routes between zones) would change
 * routes or add traffic paths, so it is refused by name rather than ignored.
 */
const ALLOWED = new Set(['platform', 'zone', 'AS', 'cluster', 'prop', 'config', 'include']);

/** The host number ranges of a cluster radical, in order: "0-99" or "0-3,8,10-11". */
function radicalRanges(radical: string, field: string): Array<[number, number]> {
  return radical.split(',').map((part) => {
    const m = /^\s*(\d+)(?:\s*-\s*(\d+))?\s*$/.exec(part);
    if (!m || (m[2] !== undefined && Number(m[2]) < Number(m[1]))) throw new InputError(field, radical, 'host numbers and ranges such as 0-99 or 0-3,8,10-11');
    return [Number(m[1]), Number(m[2] ?? m[1])];
  });
}

/**
 * A hostfile's hosts as positions in the cluster (its hosts' declaration order: the radical's numbers
 * in order). An entry is a host's name, prefix + number + suffix as SimGrid names them (the number
 * written as `std::to_string` writes it), or its position; anything else is refused, as smpirun
 * refuses a host the platform does not have.
 */
function clusterHostfileHosts(c: ClusterRead, hostfile: SimgridHostfile): number[] {
  const byEntry = (entry: string): number | undefined => {
    if (/^\d+$/.test(entry)) return Number(entry) < c.hosts ? Number(entry) : undefined;
    if (!entry.startsWith(c.prefix) || !entry.endsWith(c.suffix) || entry.length <= c.prefix.length + c.suffix.length) return undefined;
    const digits = entry.slice(c.prefix.length, entry.length - c.suffix.length);
    if (!/^(0|[1-9]\d*)$/.test(digits)) return undefined;
    const id = Number(digits);
    let position = 0;
    for (const [first, last] of c.radical) {
      if (id >= first && id <= last) return position + id - first;
      position += last - first + 1;
    }
    return undefined;
  };
  const [first] = c.radical[0];
  const last = c.radical[c.radical.length - 1][1];
  return resolveHostfile(hostfile, byEntry, `the name of one of the cluster's ${c.hosts} hosts (${c.prefix}${first}${c.suffix} … ${c.prefix}${last}${c.suffix}), or its position (0 to ${c.hosts - 1})`);
}

/**
 * Reads the platform's one cluster. Modelled: TORUS, FAT_TREE and DRAGONFLY of any shape SimGrid
 * routes, FLAT (a crossbar of private split-duplex links, with or without a shared backbone). Refused in one line naming the construct: several clusters, hosts, links or routes
 * outside the cluster, `limiter_link`, a `sharing_policy` other than SPLITDUPLEX on the private links,
 * a backbone
 * on a TORUS/FAT_TREE/DRAGONFLY cluster. loopback_bw/lat give every host a loopback (the spec keys
 * of the same names), which a host's messages to itself cross alone (SMPI's mvapich2_scatter_dest
 * sends one); without one they cross nothing on TORUS, FAT_TREE and DRAGONFLY clusters (where
 * SimGrid finds no route) and go up and down the private link on FLAT ones (docs/interop.md).
 */
function readCluster(text: string, field: string): ClusterRead {
  let found: ClusterRead | undefined;
  let clusters = 0;
  // The <config> being read (its properties as KEY:VALUE items), checked when it closes.
  let config: string[] | undefined;
  parseXml(
    text,
    {
      close: (name) => {
        if (name !== 'config') return;
        checkPlatformConfig(config!, field);
        config = undefined;
      },
      open: (name, a) => {
        if (!ALLOWED.has(name)) throw new InputError(`${field}.${name}`, `<${name}>`, 'a platform of one <cluster> (other hosts, links and routes are not imported)');
        if (name === 'config') config = [];
        if (name === 'prop') config?.push(`${a.id ?? ''}:${a.value ?? ''}`);
        if (name !== 'cluster') return;
        if (++clusters > 1) throw new InputError(field, `${clusters} <cluster> elements`, 'a platform of one <cluster> (several clusters joined by zone routes are not imported)');
        const where = `${field}.cluster`;
        const kind = (a.topology ?? 'FLAT').toUpperCase();
        if (kind !== 'TORUS' && kind !== 'FAT_TREE' && kind !== 'DRAGONFLY' && kind !== 'FLAT') throw new InputError(`${where}.topology`, a.topology, 'FLAT, TORUS, FAT_TREE or DRAGONFLY');
        // FLAT, FAT_TREE and DRAGONFLY model them (simgrid-zones.ts); TORUS clusters do not yet.
        const ownZone = kind !== 'TORUS';
        if (a.limiter_link !== undefined && !ownZone) throw new InputError(`${where}.limiter_link`, a.limiter_link, `no limiter_link on a ${kind} cluster (modelled on FLAT, FAT_TREE and DRAGONFLY clusters)`);
        const sharing = (a.sharing_policy ?? 'SPLITDUPLEX').toUpperCase();
        if (sharing !== 'SPLITDUPLEX' && sharing !== 'SHARED' && sharing !== 'FATPIPE') throw new InputError(`${where}.sharing_policy`, a.sharing_policy, 'SPLITDUPLEX, SHARED or FATPIPE');
        if (sharing !== 'SPLITDUPLEX' && !ownZone) throw new InputError(`${where}.sharing_policy`, a.sharing_policy, `SPLITDUPLEX on a ${kind} cluster (SHARED and FATPIPE, one link for both directions in SimGrid 3.32, are modelled on FLAT, FAT_TREE and DRAGONFLY clusters)`);
        let backbone: ClusterRead['backbone'];
        if (a.bb_bw !== undefined || a.bb_lat !== undefined) {
          if (kind !== 'FLAT') throw new InputError(`${where}.bb_bw`, a.bb_bw ?? a.bb_lat, `no backbone on a ${kind} cluster`);
          const bbSharing = (a.bb_sharing_policy ?? 'SHARED').toUpperCase();
          if (bbSharing !== 'SHARED' && bbSharing !== 'FATPIPE') throw new InputError(`${where}.bb_sharing_policy`, a.bb_sharing_policy, 'SHARED (the default) or FATPIPE');
          // SimGrid 3.32 passes bb_sharing_policy on to the backbone (sg_platf_new_cluster_flat), unlike the private links' policy.
          backbone = { bw: parseBandwidth(a.bb_bw ?? '', `${where}.bb_bw`), lat: parseTime(a.bb_lat ?? '0s', `${where}.bb_lat`), fatpipe: bbSharing === 'FATPIPE' };
        }
        const radical = radicalRanges(a.radical ?? '', `${where}.radical`);
        const loopbackBw = a.loopback_bw === undefined ? 0 : parseBandwidth(a.loopback_bw, `${where}.loopback_bw`);
        const loopbackLat = a.loopback_lat === undefined ? 0 : parseTime(a.loopback_lat, `${where}.loopback_lat`);
        // A latency alone would make a loopback of bandwidth 0, which no message crosses.
        if (loopbackLat > 0 && !(loopbackBw > 0)) throw new InputError(`${where}.loopback_bw`, a.loopback_bw ?? '(nothing)', 'a positive bandwidth with loopback_lat');
        found = {
          kind,
          // SimGrid 3.32 creates a cluster's links without passing the policy on: FATPIPE builds SHARED links.
          shared: sharing !== 'SPLITDUPLEX',
          limiter: a.limiter_link === undefined ? undefined : parseBandwidth(a.limiter_link, `${where}.limiter_link`),
          loopback: loopbackBw > 0 ? { bw: loopbackBw, lat: loopbackLat } : undefined,
          params: a.topo_parameters ?? '',
          hosts: radical.reduce((sum, [first, last]) => sum + last - first + 1, 0),
          prefix: a.prefix ?? '',
          suffix: a.suffix ?? '',
          radical,
          bw: parseBandwidth(a.bw ?? '', `${where}.bw`),
          lat: parseTime(a.lat ?? '', `${where}.lat`),
          backbone,
          where,
        };
      },
    },
    field,
  );
  if (found === undefined) throw new InputError(field, 'no <cluster>', 'a platform with one FLAT, TORUS, FAT_TREE or DRAGONFLY <cluster>');
  return found;
}

/** The spec keys of SimGrid's own families for SHARED/FATPIPE links and a limiter ('' for neither). */
const sharingKeys = (c: ClusterRead): string => `${c.shared ? ',sharing=shared' : ''}${c.limiter !== undefined ? `,limiter=${c.limiter}Bps` : ''}`;

/** The loopback keys every family reads (topology/registry.ts), '' for none. */
const loopbackKeys = (c: ClusterRead): string => (c.loopback ? `,loopback_bw=${c.loopback.bw}Bps,loopback_lat=${c.loopback.lat}s` : '');

/** The Meshwork spec of a TORUS, FAT_TREE or DRAGONFLY cluster (FLAT clusters have none: simgridTopology builds them). */
function clusterSpec(c: ClusterRead): string {
  const { params, where } = c;
  const link = `bw=${c.bw}Bps,lat=${c.lat}s`;
  let spec: string;
  let hosts: number;
  if (c.kind === 'TORUS') {
    if (!/^\d+(,\d+)*$/.test(params)) throw new InputError(`${where}.topo_parameters`, params, 'dimension sizes such as 4,4,4');
    spec = `torus:${params.split(',').join('x')},${link}`;
    hosts = params.split(',').reduce((x, d) => x * Number(d), 1);
  } else if (c.kind === 'FAT_TREE') {
    const m = /^(\d+);([\d,]+);([\d,]+);([\d,]+)$/.exec(params);
    const L = Number(m?.[1]);
    const [down, up, par] = [m?.[2], m?.[3], m?.[4]].map((v) => v?.split(',').map(Number) ?? []);
    if (!m || L < 1 || down.length !== L || up.length !== L || par.length !== L || [...down, ...up, ...par].some((x) => x < 1)) {
      throw new InputError(`${where}.topo_parameters`, params, '"L;D1,..,DL;U1,..,UL;P1,..,PL": levels, then per level children, parents and parallel links (positive integers)');
    }
    const k = down[0];
    const kary = down.every((d) => d === k) && up[0] === 1 && up.slice(1).every((u) => u === k) && par.every((x) => x === 1);
    // A k-ary L-tree is Meshwork's fattree family (the same d-mod-k routes); any other is SimGrid's own.
    const sharing = sharingKeys(c);
    spec = kary && !sharing ? `fattree:k=${k},levels=${L},${link}` : `simgrid-fattree:levels=${L},down=${down.join('x')},up=${up.join('x')},links=${par.join('x')}${sharing},${link}`;
    hosts = down.reduce((x, d) => x * d, 1);
  } else {
    const m = /^(\d+),(\d+);(\d+),(\d+);(\d+),(\d+);(\d+)$/.exec(params);
    const [groups, blue, chassis, black, routers, green, nodes] = m ? m.slice(1).map(Number) : [];
    if (!m || [groups, blue, chassis, black, routers, green, nodes].some((x) => x < 1)) {
      throw new InputError(`${where}.topo_parameters`, params, '"G,blue;C,black;R,green;P": groups, chassis per group, routers per chassis (each with its link count), hosts per router');
    }
    // SimGrid leaves a group through router y of the chassis (green_links_[y], R entries) for target group y.
    if (groups > routers) throw new InputError(`${where}.topo_parameters`, params, `at most as many groups as routers per chassis (${routers}): SimGrid 3.32 reaches group y through router y of a chassis, so more groups have no defined route`);
    // One chassis, one link each, 2..R groups: Meshwork's dragonfly family wired as SimGrid; else SimGrid's own.
    const sharing = sharingKeys(c);
    spec =
      chassis === 1 && blue === 1 && black === 1 && green === 1 && groups >= 2 && groups <= routers && !sharing
        ? `dragonfly:a=${routers},p=${nodes},h=1,g=${groups},wiring=simgrid,${link}`
        : `simgrid-dragonfly:groups=${groups},chassis=${chassis},routers=${routers},nodes=${nodes},blue=${blue},black=${black},green=${green}${sharing},${link}`;
    hosts = groups * chassis * routers * nodes;
  }
  if (hosts !== c.hosts) throw new InputError(`${where}.radical`, `${c.hosts} hosts`, `${hosts} hosts, as topo_parameters ${params} has`);
  return spec + loopbackKeys(c);
}

/** The Meshwork spec of a platform's TORUS, FAT_TREE or DRAGONFLY cluster. */
export function simgridClusterSpec(text: string, field = 'simgrid'): string {
  if (isZonePlatform(text, field)) throw new InputError(field, 'a platform of zones with routes', 'a platform of one TORUS, FAT_TREE or DRAGONFLY cluster for a Meshwork spec (simgridTopology reads zones)');
  const c = readCluster(text, field);
  if (c.kind === 'FLAT') throw new InputError(`${field}.cluster.topology`, 'FLAT', 'TORUS, FAT_TREE or DRAGONFLY for a Meshwork spec (simgridTopology builds FLAT clusters)');
  return clusterSpec(c);
}

/**
 * The topology of a SimGrid platform: of its one cluster (a FLAT cluster is the `simgrid-flat` family,
 * topology/simgrid-zones.ts), or of its zones, hosts, links and routes (`simgrid-zone`, simgrid-platform.ts).
 */
export function simgridTopology(text: string, field = 'simgrid', hostfile?: SimgridHostfile): Topology {
  // A hostfile restricts a platform of zones to its hosts at load (their routes only); a cluster's ranks go on its hosts in its order.
  if (isZonePlatform(text, field)) return simgridZoneTopology(text, field, hostfile);
  const c = readCluster(text, field);
  const backbone = c.backbone ? `,bb_bw=${c.backbone.bw}Bps,bb_lat=${c.backbone.lat}s${c.backbone.fatpipe ? ',bb_sharing=fatpipe' : ''}` : '';
  const topology = buildTopology(c.kind !== 'FLAT' ? clusterSpec(c) : `simgrid-flat:hosts=${c.hosts}${backbone}${sharingKeys(c)}${loopbackKeys(c)},bw=${c.bw}Bps,lat=${c.lat}s`, field);
  return hostfile ? applyHostList(topology, clusterHostfileHosts(c, hostfile), hostfile.label, hostfile.entries, `hostfile(${hostfile.label})`) : topology;
}
