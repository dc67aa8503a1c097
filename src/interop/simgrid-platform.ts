/**
 * SimGrid 3.32 platforms of zones with routes (issue 23): `<zone routing="Full|Floyd|Dijkstra|
 * DijkstraCache|None|Cluster">` holding `<host>`, `<link>`, `<router>`, `<route>`, FLAT `<cluster>`s,
 * a Cluster zone's host links, cabinets and backbone, and child zones joined by `<zoneRoute>`. Every host pair's route is computed once, as SimGrid 3.32
 * computes it (read from `src/kernel/routing/{Full,Floyd,Dijkstra,Star,NetZoneImpl,RoutedZone}Zone.cpp`
 * and `src/surf/sg_platf.cpp`), and stored as one flat link-id array with per-pair offsets
 * (ExplicitRoutes), which the `simgrid-zone` routing hands to the engines (routing/simgrid-zones.ts).
 *
 * Resources: a SHARED link is one channel, whichever way a route crosses it (one capacity for both
 * directions, as SimGrid's LMM constraint); a SPLITDUPLEX link is two channels, its _UP and _DOWN
 * halves. The graph (which node each channel joins) is inferred from the routes: consecutive links of
 * a route meet at one node. When the routes do not describe a graph (a link shared by routes from
 * different hosts as a plain resource, a bus), each channel joins its host (when one host's routes
 * start or end with it) or one of two hubs: the flow engine needs only the link lists; the packet
 * engine, which moves packets along paths, refuses such a platform.
 *
 * Everything not modelled is refused in one line naming the element or attribute (docs/interop.md).
 */
import { InputError, LimitError } from '../util/errors.js';
import { parseBandwidth, parseTime } from '../util/units.js';
import { NodeKind, Topology, type ExplicitRoutes } from '../topology/graph.js';
import { TopologyBuilder } from '../topology/builder.js';
import { parseXml, type XmlAttributes } from './xml.js';
import { appendAll } from '../util/arrays.js';
import { checkPlatformConfig } from '../sim/flow/simgrid-cfg.js';
import { resolveHostfile, type SimgridHostfile } from './hostfile.js';
import { applyHostList } from '../topology/mapping.js';

/** Most link ids the route table of a zone platform may hold (one per link of each ordered host pair's route; 128 MiB). */
export const MAX_SIMGRID_ROUTE_ENTRIES = 1 << 25;
/** Most netpoints of one Floyd or Dijkstra zone (its shortest paths cost V³). */
export const MAX_SIMGRID_SHORTEST_PATH_VERTICES = 1024;

/** A zone's route table key: src · PAIR + dst (netpoint indices within the zone). */
const PAIR = 2 ** 26;

type ZoneRouting = 'Full' | 'Floyd' | 'Dijkstra' | 'DijkstraCache' | 'None' | 'Star';
const ROUTINGS = ['Full', 'Floyd', 'Dijkstra', 'DijkstraCache', 'None', 'Cluster'];

interface Netpoint {
  readonly name: string;
  readonly kind: 'host' | 'router' | 'zone';
  /** The zone that holds it. */
  readonly zone: number;
  /** Its index among that zone's vertices (SimGrid's netpoint id in the zone). */
  readonly local: number;
  /** For a zone's netpoint: that zone. */
  readonly child: number;
}

/** A route as resources: each entry a channel id, or ~id when the route crosses a SHARED link against its declared direction. */
interface LocalRoute {
  readonly links: readonly number[];
  readonly gwSrc: number;
  readonly gwDst: number;
}

interface Zone {
  readonly name: string;
  readonly routing: ZoneRouting;
  readonly parent: number;
  readonly netpoint: number;
  readonly vertices: number[];
  readonly where: string;
  /** Full, Floyd, Dijkstra: declared routes by `src·V + dst` (symmetrical ones included reversed). */
  readonly table: Map<number, LocalRoute>;
  /** Dijkstra: graph node order (SimGrid numbers nodes as routes first name them) and out-edges in declaration order. */
  readonly graphNodes: number[];
  /** Star (a FLAT cluster): per vertex, its links up and down. */
  readonly up: Map<number, readonly number[]>;
  readonly down: Map<number, readonly number[]>;
  /** Star: per host vertex, its loopback channel (a FLAT cluster's loopback_bw and loopback_lat). */
  readonly loopback: Map<number, number>;
  /** Shortest-path predecessors (Floyd: V×V; Dijkstra: per source, cached). */
  floyd?: Int32Array;
  readonly dijkstra: Map<number, Int32Array>;
  /** A routing="Cluster" zone: its backbone, host links and cabinets, built when the zone closes, as SimGrid seals it. */
  clusterZone?: { backbone?: { id: string; bw: number; lat: number }; hostLinks: Array<{ host: number; up: LinkRead; down: LinkRead }>; cabinets: XmlAttributes[] };
  /** What the zone holds so far (SimGrid's DTD allows zones or hosts, not both), and whether routes began. */
  content?: 'inner' | 'leaf';
  routed?: boolean;
}

interface LinkRead {
  readonly split: boolean;
  /** SHARED: [channel]; SPLITDUPLEX: [up, down]. */
  readonly channels: readonly number[];
}

interface RouteRead {
  readonly src: number;
  readonly dst: number;
  readonly gwSrc: number;
  readonly gwDst: number;
  readonly symmetrical: boolean;
  readonly links: Array<{ link: LinkRead; dir: 'UP' | 'DOWN' | 'NONE' }>;
  readonly where: string;
}

/** Attributes each element accepts; an element or attribute outside these is refused by name. */
const ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  platform: ['version'],
  zone: ['id', 'routing'],
  AS: ['id', 'routing'],
  host: ['id', 'speed', 'core', 'pstate', 'coordinates'],
  link: ['id', 'bandwidth', 'latency', 'sharing_policy'],
  router: ['id', 'coordinates'],
  route: ['src', 'dst', 'symmetrical'],
  zoneRoute: ['src', 'dst', 'gw_src', 'gw_dst', 'symmetrical'],
  ASroute: ['src', 'dst', 'gw_src', 'gw_dst', 'symmetrical'],
  link_ctn: ['id', 'direction'],
  // A routing="Cluster" zone's own elements (sg_platf_zone_cluster_populate).
  backbone: ['id', 'bandwidth', 'latency'],
  host_link: ['id', 'up', 'down'],
  cabinet: ['id', 'prefix', 'suffix', 'radical', 'speed', 'bw', 'lat'],
  cluster: ['id', 'prefix', 'suffix', 'radical', 'speed', 'core', 'bw', 'lat', 'bb_bw', 'bb_lat', 'bb_sharing_policy', 'sharing_policy', 'router_id', 'limiter_link', 'loopback_bw', 'loopback_lat', 'topology', 'topo_parameters'],
  prop: ['id', 'value'],
  config: ['id'],
};

/** Why an element SimGrid knows is not read, for its one-line refusal. */
const REFUSED_ELEMENTS: Readonly<Record<string, string>> = {
  bypassRoute: 'routes computed by the zones (bypass routes are not modelled)',
  bypassASroute: 'routes computed by the zones (bypass routes are not modelled)',
  bypassZoneRoute: 'routes computed by the zones (bypass routes are not modelled)',
  trace: 'constant bandwidths and latencies (traces are not modelled)',
  trace_connect: 'constant bandwidths and latencies (traces are not modelled)',
  disk: 'hosts without disks (I/O is not modelled)',
  actor: 'a platform file (actors belong to the deployment, which smpirun makes)',
  process: 'a platform file (actors belong to the deployment, which smpirun makes)',
  include: 'one self-contained platform file',
};

const accepted = `the elements ${Object.keys(ATTRIBUTES).join(', ')}`;

/** Thrown by isZonePlatform at the first element only the zone reader reads, so the scan stops there. */
class ZoneElement extends InputError {}

/** True when the platform needs the zone reader: anything beside one cluster in zones (with props and config). */
export function isZonePlatform(text: string, field: string): boolean {
  let clusters = 0;
  try {
    parseXml(
      text,
      {
        open: (name) => {
          if (name === 'cluster') clusters++;
          else if (name !== 'platform' && name !== 'zone' && name !== 'AS' && name !== 'prop' && name !== 'config' && name !== 'include') throw new ZoneElement(field, name, 'a zone platform');
          if (clusters > 1) throw new ZoneElement(field, name, 'a zone platform');
        },
      },
      field,
    );
  } catch (err) {
    if (err instanceof ZoneElement) return true;
    throw err;
  }
  return false;
}

/** Hosts in declaration order, their names, and every ordered pair's route as channel ids. */
class PlatformReader {
  readonly netpoints: Netpoint[] = [];
  readonly byName = new Map<string, number>();
  readonly zones: Zone[] = [];
  readonly hosts: number[] = [];
  readonly links = new Map<string, LinkRead>();
  /** The properties of the <config> being read (as KEY:VALUE items), or undefined outside one. */
  private config: string[] | undefined;
  /** Channels of FATPIPE links. */
  readonly fatpipe = new Set<number>();
  /** The halves of SPLITDUPLEX links by SimGrid's names for them (`l_UP`, `l_DOWN`), made as first named. */
  private readonly halves = new Map<string, LinkRead>();
  readonly chBandwidth: number[] = [];
  readonly chLatency: number[] = [];
  readonly chClass: string[] = [];
  readonly chName: string[] = [];
  private readonly stack: number[] = [];
  private route: RouteRead | undefined;
  private inCluster = false;

  constructor(private readonly field: string) {}

  read(text: string): void {
    parseXml(text, { open: (name, a) => this.open(name, a), close: (name) => this.close(name) }, this.field);
    if (this.zones.length === 0) throw new InputError(this.field, 'no <zone>', 'a platform with a <zone>');
    if (this.hosts.length < 1) throw new InputError(this.field, 'no host', 'a platform with at least one host');
  }

  private get zone(): number {
    return this.stack[this.stack.length - 1] ?? -1;
  }

  /**
   * A declared link, or one half of a SPLITDUPLEX link named as SimGrid names it (`l_UP`, `l_DOWN`:
   * s4u::Link::by_name finds the halves, so host links and routes may name one): that half alone,
   * a one-channel link with no direction of its own.
   */
  private linkNamed(id: string): LinkRead | undefined {
    const link = this.links.get(id);
    if (link) return link;
    let half = this.halves.get(id);
    if (half) return half;
    const m = /^(.*)_(UP|DOWN)$/.exec(id);
    const base = m ? this.links.get(m[1]) : undefined;
    if (!m || !base?.split) return undefined;
    half = { split: false, channels: [base.channels[m[2] === 'UP' ? 0 : 1]] };
    this.halves.set(id, half);
    return half;
  }

  private open(name: string, a: XmlAttributes): void {
    // The hot path (one per link of every declared route): no strings built unless refused.
    if (name === 'link_ctn' && this.route && a.id !== undefined && Object.keys(a).length === (a.direction === undefined ? 1 : 2)) {
      const link = this.links.get(a.id);
      const dir = a.direction?.toUpperCase() ?? 'NONE';
      if (link && ((link.split && (dir === 'UP' || dir === 'DOWN')) || (!link.split && dir === 'NONE'))) {
        this.route.links.push({ link, dir });
        return;
      }
    }
    const where = `${this.field}.${name}${a.id !== undefined ? `(${a.id})` : a.src !== undefined ? `(${a.src}->${a.dst})` : ''}`;
    if (REFUSED_ELEMENTS[name]) throw new InputError(`${this.field}.${name}`, `<${name}>`, REFUSED_ELEMENTS[name]);
    const known = ATTRIBUTES[name];
    if (!known) throw new InputError(`${this.field}.${name}`, `<${name}>`, accepted);
    for (const key of Object.keys(a)) {
      if (!known.includes(key)) throw new InputError(`${where}.${key}`, a[key], `the attributes ${known.join(', ')} (SimGrid 3.32's ${key} is not modelled)`);
    }
    if (name === 'config') {
      this.config = [];
      return;
    }
    if (name === 'prop') {
      this.config?.push(`${a.id ?? ''}:${a.value ?? ''}`);
      return;
    }
    if (name === 'platform') return;
    if (this.inCluster) throw new InputError(`${where}`, `<${name}> in a <cluster>`, 'only <prop> in a <cluster>');
    if (name !== 'zone' && name !== 'AS' && this.zone < 0) throw new InputError(where, `<${name}> outside a zone`, 'hosts, links, routers, routes and clusters inside a <zone>');
    if (this.route && name !== 'link_ctn') throw new InputError(where, `<${name}> in a route`, '<link_ctn> only');
    if (name !== 'link_ctn' && this.zone >= 0) this.checkContent(this.zones[this.zone], name, where);
    switch (name) {
      case 'zone':
      case 'AS':
        this.openZone(a, where);
        return;
      case 'cluster':
        this.openCluster(a, where);
        return;
      case 'host': {
        if (a.speed === undefined) throw new InputError(`${where}.speed`, undefined, 'a speed such as 1Gf');
        checkSpeed(a.speed, `${where}.speed`);
        if (a.core !== undefined && !/^[1-9]\d*$/.test(a.core)) throw new InputError(`${where}.core`, a.core, 'a positive integer');
        this.hosts.push(this.addNetpoint(a.id, 'host', this.zone, -1, where));
        return;
      }
      case 'router':
        this.addNetpoint(a.id, 'router', this.zone, -1, where);
        return;
      case 'link':
        this.addLink(a, where);
        return;
      case 'backbone':
      case 'host_link':
      case 'cabinet':
        this.clusterZoneElement(name, a, where);
        return;
      case 'route':
      case 'zoneRoute':
      case 'ASroute':
        this.openRoute(name !== 'route', a, where);
        return;
      case 'link_ctn': {
        if (!this.route) throw new InputError(where, '<link_ctn> outside a route', '<link_ctn> inside <route> or <zoneRoute>');
        const link = this.linkNamed(a.id ?? '');
        if (!link) throw new InputError(`${where}.id`, a.id, 'the id of a <link> declared before the route');
        const dir = (a.direction ?? 'NONE').toUpperCase();
        if (dir !== 'UP' && dir !== 'DOWN' && dir !== 'NONE') throw new InputError(`${where}.direction`, a.direction, 'UP, DOWN or NONE');
        // SimGrid 3.32: a SPLITDUPLEX link needs a direction (get_link_list_impl throws), any other has none.
        if (link.split && dir === 'NONE') throw new InputError(`${where}.direction`, a.direction ?? '(none)', `UP or DOWN for the SPLITDUPLEX link ${a.id}`);
        if (!link.split && dir !== 'NONE') throw new InputError(`${where}.direction`, a.direction, `no direction for the ${a.id} link (UP and DOWN name the halves of a SPLITDUPLEX link)`);
        this.route.links.push({ link, dir });
        return;
      }
    }
  }

  private close(name: string): void {
    if (name === 'config') {
      checkPlatformConfig(this.config!, this.field);
      this.config = undefined;
    } else if (name === 'zone' || name === 'AS') {
      const z = this.zones[this.zone];
      if (z.clusterZone) this.populateClusterZone(z, this.zone);
      this.stack.pop();
    }
    else if (name === 'cluster') {
      this.inCluster = false;
      this.stack.pop();
    }
    else if ((name === 'route' || name === 'zoneRoute' || name === 'ASroute') && this.route) {
      this.closeRoute(this.route);
      this.route = undefined;
    }
  }

  /**
   * SimGrid's DTD (simgrid.dtd, `<!ELEMENT zone ...>`): a zone holds either zones and clusters, joined by
   * zoneRoutes, or hosts and routers, joined by routes; links in either; every route after the rest.
   */
  private checkContent(z: Zone, name: string, where: string): void {
    const inner = name === 'zone' || name === 'AS' || name === 'cluster' || name === 'zoneRoute' || name === 'ASroute';
    const leaf = name === 'host' || name === 'router' || name === 'route' || name === 'host_link' || name === 'cabinet' || name === 'backbone';
    const routing = name === 'route' || name === 'zoneRoute' || name === 'ASroute';
    if ((inner && z.content === 'leaf') || (leaf && z.content === 'inner')) {
      throw new InputError(where, `<${name}> in the zone ${z.name}, which holds ${z.content === 'leaf' ? 'hosts or routers' : 'zones or clusters'}`, 'a zone of zones and clusters joined by <zoneRoute>, or of hosts and routers joined by <route> (SimGrid\'s DTD)');
    }
    if (!routing && z.routed) throw new InputError(where, `<${name}> after a route in the zone ${z.name}`, 'routes after the hosts, routers, links, zones and clusters they join (SimGrid\'s DTD)');
    if (inner) z.content = 'inner';
    if (leaf) z.content = 'leaf';
    if (routing) z.routed = true;
  }

  private addNetpoint(id: string | undefined, kind: Netpoint['kind'], zone: number, child: number, where: string): number {
    if (!id) throw new InputError(`${where}.id`, id, 'a non-empty name');
    if (this.byName.has(id)) throw new InputError(`${where}.id`, id, 'a name no other host, router or zone has');
    if (zone >= 0 && this.zones[zone].vertices.length >= PAIR) throw new LimitError(where, `${PAIR + 1} netpoints in the zone ${this.zones[zone].name}`, `${PAIR} hosts, routers and zones in one zone`);
    const index = this.netpoints.length;
    const local = zone >= 0 ? this.zones[zone].vertices.push(index) - 1 : -1;
    this.netpoints.push({ name: id, kind, zone, local, child });
    this.byName.set(id, index);
    return index;
  }

  private newZone(name: string, routing: ZoneRouting, where: string): number {
    const index = this.zones.length;
    const parent = this.zone;
    this.zones.push({ name, routing, parent, netpoint: -1, vertices: [], where, table: new Map(), graphNodes: [], up: new Map(), down: new Map(), loopback: new Map(), dijkstra: new Map() });
    const netpoint = parent >= 0 ? this.addNetpoint(name, 'zone', parent, index, where) : -1;
    (this.zones[index] as { netpoint: number }).netpoint = netpoint;
    if (parent < 0 && index > 0) throw new InputError(where, 'a second root zone', 'one root <zone>');
    return index;
  }

  private openZone(a: XmlAttributes, where: string): void {
    const routing = ROUTINGS.find((r) => r.toLowerCase() === (a.routing ?? '').toLowerCase());
    if (!routing) {
      throw new InputError(`${where}.routing`, a.routing, `${ROUTINGS.join(', ')} (FLAT clusters are <cluster> elements; Vivaldi, Star, Wifi, ns-3 and the cluster routings of zones are not read)`);
    }
    // Dijkstra's zone-of-zones route in SimGrid 3.32 asks for the route between two null gateways; None has no routes.
    if (this.zone >= 0 && this.zones[this.zone].routing !== 'Full' && this.zones[this.zone].routing !== 'Floyd') {
      throw new InputError(where, `a zone inside the ${routingOf(this.zones[this.zone])} zone ${this.zones[this.zone].name}`, 'child zones and clusters inside Full or Floyd zones (joined by <zoneRoute>)');
    }
    // routing="Cluster": SimGrid 3.32 builds a StarZone (sg_platf_create_zone) from host links, cabinets and a backbone.
    const zone = this.newZone(a.id ?? '', routing === 'Cluster' ? 'Star' : (routing as ZoneRouting), where);
    if (routing === 'Cluster') this.zones[zone].clusterZone = { hostLinks: [], cabinets: [] };
    this.stack.push(zone);
  }

  /** <backbone>, <host_link> and <cabinet>: only in a routing="Cluster" zone (SimGrid asserts so). */
  private clusterZoneElement(name: string, a: XmlAttributes, where: string): void {
    const c = this.zones[this.zone].clusterZone;
    if (!c) throw new InputError(where, `<${name}> in the ${routingOf(this.zones[this.zone])} zone ${this.zones[this.zone].name}`, `<${name}> in a routing="Cluster" zone only (in a <cluster>: bb_bw and bb_lat)`);
    if (name === 'backbone') {
      if (c.backbone) throw new InputError(where, 'a second <backbone>', 'one backbone per Cluster zone');
      c.backbone = { id: a.id ?? '', bw: parseBandwidth(a.bandwidth ?? '', `${where}.bandwidth`), lat: parseTime(a.latency ?? '', `${where}.latency`) };
    } else if (name === 'host_link') {
      const host = this.byName.get(a.id ?? '');
      if (host === undefined || this.netpoints[host].kind !== 'host' || this.netpoints[host].zone !== this.zone) throw new InputError(`${where}.id`, a.id, `a host of the zone ${this.zones[this.zone].name} declared before`);
      const [up, down] = (['up', 'down'] as const).map((key) => {
        const link = this.linkNamed(a[key] ?? '');
        if (!link) throw new InputError(`${where}.${key}`, a[key], 'the id of a <link> declared before (or l_UP, l_DOWN: a half of the SPLITDUPLEX link l)');
        // The Cluster zone's routes name the link without a direction: SimGrid throws for a SPLITDUPLEX one.
        if (link.split) throw new InputError(`${where}.${key}`, a[key], 'a SHARED link (SimGrid 3.32 gives host links no direction, which a SPLITDUPLEX link needs)');
        return link;
      });
      c.hostLinks.push({ host, up, down });
    } else {
      checkSpeed(a.speed ?? '', `${where}.speed`);
      c.cabinets.push(a);
    }
  }

  /** sg_platf_zone_cluster_populate: the backbone, then each host link, then each cabinet's hosts and links. */
  private populateClusterZone(z: Zone, zone: number): void {
    const c = z.clusterZone!;
    const bb = c.backbone === undefined ? undefined : this.addChannel(c.backbone.id, c.backbone.bw, c.backbone.lat, 'backbone');
    // add_route(host, nullptr, {up, backbone}) and add_route(nullptr, host, {backbone, down}), not symmetrical.
    const attach = (host: number, up: number, down: number): void => {
      z.up.set(this.netpoints[host].local, bb === undefined ? [up] : [up, bb]);
      z.down.set(this.netpoints[host].local, bb === undefined ? [down] : [bb, down]);
    };
    for (const h of c.hostLinks) attach(h.host, h.up.channels[0], h.down.channels[0]);
    // A router of the zone (a zoneRoute's gateway) has no private link: its routes cross the backbone alone.
    for (const v of z.vertices) {
      const np = this.netpoints[v];
      if (np.kind === 'router' && !z.up.has(np.local)) {
        z.up.set(np.local, bb === undefined ? [] : [bb]);
        z.down.set(np.local, bb === undefined ? [] : [bb]);
      }
    }
    for (const a of c.cabinets) {
      const where = `${z.where}.cabinet(${a.id})`;
      const [bw, lat] = [parseBandwidth(a.bw ?? '', `${where}.bw`), parseTime(a.lat ?? '', `${where}.lat`)];
      for (const i of radicals(a.radical ?? '', `${where}.radical`)) {
        const id = `${a.prefix ?? ''}${i}${a.suffix ?? ''}`;
        const host = this.addNetpoint(id, 'host', zone, -1, where);
        this.hosts.push(host);
        attach(host, this.addChannel(`link_${id}_UP`, bw, lat, 'link'), this.addChannel(`link_${id}_DOWN`, bw, lat, 'link'));
      }
    }
  }

  /** A FLAT cluster: SimGrid 3.32 builds it as a StarZone (sg_platf_new_cluster_flat). */
  private openCluster(a: XmlAttributes, where: string): void {
    const topology = (a.topology ?? 'FLAT').toUpperCase();
    if (topology !== 'FLAT') throw new InputError(`${where}.topology`, a.topology, 'FLAT beside other clusters, zones, hosts or links (a TORUS, FAT_TREE or DRAGONFLY cluster loads alone in its platform)');
    const parent = this.zones[this.zone].routing;
    if (parent !== 'Full' && parent !== 'Floyd') throw new InputError(where, `a cluster inside the ${parent} zone ${this.zones[this.zone].name}`, 'clusters inside Full or Floyd zones');
    const id = a.id ?? '';
    const [prefix, suffix] = [a.prefix ?? '', a.suffix ?? ''];
    const speed = a.speed ?? '';
    checkSpeed(speed, `${where}.speed`);
    const bw = parseBandwidth(a.bw ?? '', `${where}.bw`);
    const lat = parseTime(a.lat ?? '', `${where}.lat`);
    const sharing = (a.sharing_policy ?? 'SPLITDUPLEX').toUpperCase();
    if (sharing !== 'SPLITDUPLEX' && sharing !== 'SHARED' && sharing !== 'FATPIPE') throw new InputError(`${where}.sharing_policy`, a.sharing_policy, 'SPLITDUPLEX, SHARED or FATPIPE');
    const zone = this.newZone(id, 'Star', where);
    this.stack.push(zone);
    this.inCluster = true;
    const z = this.zones[zone];
    let backbone: number | undefined;
    if (a.bb_bw !== undefined || a.bb_lat !== undefined) {
      const bbSharing = (a.bb_sharing_policy ?? 'SHARED').toUpperCase();
      if (bbSharing !== 'SHARED' && bbSharing !== 'FATPIPE') throw new InputError(`${where}.bb_sharing_policy`, a.bb_sharing_policy, 'SHARED (the default) or FATPIPE');
      backbone = this.addChannel(`${id}_backbone`, parseBandwidth(a.bb_bw ?? '', `${where}.bb_bw`), parseTime(a.bb_lat ?? '0s', `${where}.bb_lat`), 'backbone');
      // SimGrid 3.32 passes bb_sharing_policy on to the backbone (sg_platf_new_cluster_flat), unlike the private links' policy.
      if (bbSharing === 'FATPIPE') this.fatpipe.add(backbone);
    }
    const limiter = a.limiter_link === undefined ? undefined : parseBandwidth(a.limiter_link, `${where}.limiter_link`);
    const loopbackBw = a.loopback_bw === undefined ? 0 : parseBandwidth(a.loopback_bw, `${where}.loopback_bw`);
    const loopbackLat = a.loopback_lat === undefined ? 0 : parseTime(a.loopback_lat, `${where}.loopback_lat`);
    // A latency alone would make a loopback of bandwidth 0, which no message crosses.
    if (loopbackLat > 0 && !(loopbackBw > 0)) throw new InputError(`${where}.loopback_bw`, a.loopback_bw ?? '(nothing)', 'a positive bandwidth with loopback_lat');
    for (const i of radicals(a.radical ?? '', `${where}.radical`)) {
      const host = this.addNetpoint(`${prefix}${i}${suffix}`, 'host', zone, -1, where);
      this.hosts.push(host);
      if (loopbackBw > 0) {
        // sg_platf_new_cluster_flat: a FATPIPE link of the host's own, its route to itself.
        const loopback = this.addChannel(`${id}_link_${i}_loopback`, loopbackBw, loopbackLat, 'loopback');
        this.fatpipe.add(loopback);
        z.loopback.set(this.netpoints[host].local, loopback);
      }
      const up: number[] = [];
      const down: number[] = [];
      const lim = limiter === undefined ? -1 : this.addChannel(`${id}_link_${i}_limiter`, limiter, 0, 'limiter');
      if (lim >= 0) up.push(lim);
      // SimGrid 3.32 creates non-SPLITDUPLEX private links without passing the policy on: FATPIPE builds SHARED links.
      if (sharing === 'SPLITDUPLEX') {
        const upChannel = this.addChannel(`${id}_link_${i}_UP`, bw, lat, 'host-up');
        const downChannel = this.addChannel(`${id}_link_${i}_DOWN`, bw, lat, 'host-down');
        up.push(upChannel);
        down.push(downChannel);
      } else {
        const link = this.addChannel(`${id}_link_${i}`, bw, lat, 'host-link');
        up.push(link);
        down.push(~link);
      }
      if (backbone !== undefined) {
        up.push(backbone);
        down.unshift(~backbone);
      }
      if (lim >= 0) down.push(~lim);
      z.up.set(this.netpoints[host].local, up);
      z.down.set(this.netpoints[host].local, down);
    }
    const router = this.addNetpoint(a.router_id ?? `${prefix}${id}_router${suffix}`, 'router', zone, -1, where);
    z.up.set(this.netpoints[router].local, []);
    z.down.set(this.netpoints[router].local, []);
  }

  private addChannel(name: string, bw: number, lat: number, cls: string): number {
    this.chBandwidth.push(bw);
    this.chLatency.push(lat);
    this.chClass.push(cls);
    this.chName.push(name);
    return this.chName.length - 1;
  }

  private addLink(a: XmlAttributes, where: string): void {
    const id = a.id ?? '';
    if (id === '' || this.links.has(id)) throw new InputError(`${where}.id`, a.id, 'a name no other link has');
    const bw = parseBandwidth(a.bandwidth ?? '', `${where}.bandwidth`);
    const lat = parseTime(a.latency ?? '0s', `${where}.latency`);
    const policy = (a.sharing_policy ?? 'SHARED').toUpperCase();
    if (policy === 'SHARED') {
      this.links.set(id, { split: false, channels: [this.addChannel(id, bw, lat, 'link')] });
    } else if (policy === 'SPLITDUPLEX' || policy === 'FULLDUPLEX') {
      // SimGrid 3.32 reads the deprecated FULLDUPLEX as SPLITDUPLEX.
      this.links.set(id, { split: true, channels: [this.addChannel(`${id}_UP`, bw, lat, 'link-up'), this.addChannel(`${id}_DOWN`, bw, lat, 'link-down')] });
    } else if (policy === 'FATPIPE') {
      // Its flows do not add up (the flow engine's FATPIPE resources: MaxMinSolver's `fatpipe`).
      const c = this.addChannel(id, bw, lat, 'link');
      this.fatpipe.add(c);
      this.links.set(id, { split: false, channels: [c] });
    } else {
      throw new InputError(`${where}.sharing_policy`, a.sharing_policy, 'SHARED (the default), SPLITDUPLEX or FATPIPE (WIFI is not modelled)');
    }
  }

  private openRoute(zoneRoute: boolean, a: XmlAttributes, where: string): void {
    const find = (key: string): number => {
      const v = this.byName.get(a[key] ?? '');
      if (v === undefined) throw new InputError(`${where}.${key}`, a[key], 'the name of a host, router or zone declared before the route');
      return v;
    };
    const symmetrical = (a.symmetrical ?? 'YES').toUpperCase();
    if (symmetrical !== 'YES' && symmetrical !== 'NO') throw new InputError(`${where}.symmetrical`, a.symmetrical, 'YES (the default) or NO');
    const [src, dst] = [find('src'), find('dst')];
    const [gwSrc, gwDst] = zoneRoute ? [find('gw_src'), find('gw_dst')] : [-1, -1];
    for (const [key, v] of [['src', src], ['dst', dst]] as const) {
      const p = this.netpoints[v];
      if (p.zone !== this.zone) throw new InputError(`${where}.${key}`, a[key], `a host, router or zone of the zone ${this.zones[this.zone].name} that declares the route`);
      if (zoneRoute !== (p.kind === 'zone')) throw new InputError(`${where}.${key}`, a[key], zoneRoute ? 'a zone (a <zoneRoute> joins zones)' : 'a host or router (zones are joined by <zoneRoute>)');
    }
    if (zoneRoute) {
      for (const [key, gw, of] of [['gw_src', gwSrc, src], ['gw_dst', gwDst, dst]] as const) {
        if (this.netpoints[gw].kind === 'zone' || !this.inside(gw, this.netpoints[of].child)) throw new InputError(`${where}.${key}`, a[key], `a host or router inside the zone ${a[key === 'gw_src' ? 'src' : 'dst']}`);
      }
    }
    this.route = { src, dst, gwSrc, gwDst, symmetrical: symmetrical === 'YES', links: [], where };
  }

  private inside(netpoint: number, zone: number): boolean {
    for (let z = this.netpoints[netpoint].zone; z >= 0; z = this.zones[z].parent) if (z === zone) return true;
    return false;
  }

  private closeRoute(r: RouteRead): void {
    if (r.links.length === 0) throw new InputError(r.where, 'an empty route', 'at least one <link_ctn> (SimGrid forbids empty routes)');
    const z = this.zones[this.zone];
    if (z.routing === 'None' || z.clusterZone) throw new InputError(r.where, `a route in the routing="${routingOf(z)}" zone ${z.name}`, 'routes in Full, Floyd or Dijkstra zones (a Cluster zone\'s routes are its host links)');
    const forward: number[] = [];
    const back: number[] = [];
    for (const { link: l, dir } of r.links) {
      if (!l.split) {
        forward.push(l.channels[0]);
        back.push(~l.channels[0]);
      } else {
        // get_link_list_impl: UP is the _UP half forward and the _DOWN half on the way back.
        forward.push(l.channels[dir === 'UP' ? 0 : 1]);
        back.push(l.channels[dir === 'UP' ? 1 : 0]);
      }
    }
    const [s, d] = [this.netpoints[r.src].local, this.netpoints[r.dst].local];
    this.addLocal(z, s, d, { links: forward, gwSrc: r.gwSrc, gwDst: r.gwDst }, r.where);
    // The reverse of a symmetrical route: gateways swapped, the back links in reverse order (RoutedZone::new_extended_route).
    if (r.symmetrical && r.src !== r.dst) this.addLocal(z, d, s, { links: back.reverse(), gwSrc: r.gwDst, gwDst: r.gwSrc }, r.where);
  }

  private addLocal(z: Zone, s: number, d: number, route: LocalRoute, where: string): void {
    const key = s * PAIR + d;
    if (z.table.has(key)) throw new InputError(where, `a second route from ${this.netpoints[z.vertices[s]].name} to ${this.netpoints[z.vertices[d]].name}`, 'one route per ordered pair (routes are symmetrical by default: declare the reverse only with symmetrical="NO")');
    z.table.set(key, route);
    if (z.routing === 'Dijkstra' || z.routing === 'DijkstraCache') {
      for (const v of [s, d]) if (!z.graphNodes.includes(v)) z.graphNodes.push(v);
    }
  }

  /** SimGrid's route between two netpoints of one zone, appended to `out`. */
  localRoute(zi: number, s: number, d: number, out: number[]): { gwSrc: number; gwDst: number } {
    const z = this.zones[zi];
    const name = (v: number): string => this.netpoints[z.vertices[v]].name;
    const noRoute = (): never => {
      throw new InputError(z.where, `no route from ${name(s)} to ${name(d)}`, `a <route> (or <zoneRoute>) for every pair of the ${routingOf(z)} zone ${z.name}${z.routing === 'Full' ? ' (a Full zone lists each pair)' : ''}`);
    };
    switch (z.routing) {
      case 'Full': {
        const r = z.table.get(s * PAIR + d) ?? noRoute();
        appendAll(out, r.links);
        return r;
      }
      case 'Star': {
        // StarZone::get_local_route: the source's links up, then the destination's down, each link once
        // (a few links each: a scan, not a set).
        const [up, down] = [z.up.get(s), z.down.get(d)];
        if (!up || !down) throw new InputError(z.where, `no ${up ? 'link down to' : 'link up from'} ${name(up ? d : s)}`, 'a <host_link> for every host of a Cluster zone that a route reaches');
        appendAll(out, up);
        for (const e of down) if (!up.some((u) => (u < 0 ? ~u : u) === (e < 0 ? ~e : e))) out.push(e);
        return { gwSrc: -1, gwDst: -1 };
      }
      case 'None':
        return noRoute();
      default: {
        const pred = this.predecessors(zi, s);
        const hops: LocalRoute[] = [];
        for (let v = d; v !== s; ) {
          const p = pred[v];
          if (p < 0) noRoute();
          hops.push(z.table.get(p * PAIR + v)!);
          v = p;
        }
        if (z.routing !== 'Floyd') {
          // Dijkstra inserts each route's links at the front, reversed (insert_link_latency): its hops come
          // in order but each hop's links backwards (SimGrid 3.32 does so).
          for (let i = hops.length - 1; i >= 0; i--) appendAll(out, [...hops[i].links].reverse());
          return { gwSrc: -1, gwDst: -1 };
        }
        // FloydZone::get_local_route: the hops in order; in a zone of zones (zoneRoutes), where one hop's
        // gw_dst is not the next one's gw_src, the global route between the two gateways goes between them.
        let previous = -1;
        for (let i = hops.length - 1; i >= 0; i--) {
          if (previous >= 0 && hops[i].gwSrc >= 0 && previous !== hops[i].gwSrc) appendAll(out, this.segment(previous, hops[i].gwSrc));
          appendAll(out, hops[i].links);
          previous = hops[i].gwDst;
        }
        return { gwSrc: hops[hops.length - 1].gwSrc, gwDst: hops[0].gwDst };
      }
    }
  }

  /** Shortest-path predecessors from `s` by link count, with SimGrid's tie-breaks (Floyd–Warshall in netpoint order; Dijkstra by (cost, graph node)). */
  private predecessors(zi: number, s: number): Int32Array {
    const z = this.zones[zi];
    const V = z.vertices.length;
    if (V > MAX_SIMGRID_SHORTEST_PATH_VERTICES) throw new LimitError(`${z.where}.routing`, `${z.routing} over ${V} netpoints`, `${MAX_SIMGRID_SHORTEST_PATH_VERTICES} netpoints in a Floyd or Dijkstra zone (MAX_SIMGRID_SHORTEST_PATH_VERTICES; its shortest paths cost V³)`);
    if (z.routing === 'Floyd') {
      if (!z.floyd) {
        // FloydZone::do_seal, loop for loop: cost = the route's link count, strict improvement.
        const cost = new Float64Array(V * V).fill(Infinity);
        const pred = new Int32Array(V * V).fill(-1);
        for (const [key, r] of z.table) {
          const [a, b] = [Math.floor(key / PAIR), key % PAIR];
          cost[a * V + b] = r.links.length;
          pred[a * V + b] = a;
        }
        for (let c = 0; c < V; c++) {
          for (let a = 0; a < V; a++) {
            const ac = cost[a * V + c];
            if (ac === Infinity) continue;
            for (let b = 0; b < V; b++) {
              const through = ac + cost[c * V + b];
              if (through < cost[a * V + b]) {
                cost[a * V + b] = through;
                pred[a * V + b] = pred[c * V + b];
              }
            }
          }
        }
        z.floyd = pred;
      }
      return z.floyd.subarray(s * V, (s + 1) * V);
    }
    let pred = z.dijkstra.get(s);
    if (!pred) {
      // DijkstraZone::get_local_route: nodes in the order routes first named them, out-edges in declaration order,
      // the queue popping the least (cost, node index); a route's cost is its link count.
      const order = z.graphNodes;
      const index = new Map(order.map((v, i) => [v, i]));
      const out: Array<Array<[number, number]>> = order.map(() => []);
      for (const [key, r] of z.table) out[index.get(Math.floor(key / PAIR))!].push([index.get(key % PAIR)!, r.links.length]);
      const n = order.length;
      const cost = new Float64Array(n).fill(Infinity);
      const done = new Uint8Array(n);
      const p = new Int32Array(n).fill(-1);
      const start = index.get(s);
      if (start !== undefined) cost[start] = 0;
      for (;;) {
        let v = -1;
        for (let i = 0; i < n; i++) if (!done[i] && cost[i] < Infinity && (v < 0 || cost[i] < cost[v])) v = i;
        if (v < 0) break;
        done[v] = 1;
        for (const [u, w] of out[v]) {
          if (cost[v] + w < cost[u]) {
            cost[u] = cost[v] + w;
            p[u] = v;
          }
        }
      }
      pred = new Int32Array(V).fill(-1);
      for (let i = 0; i < n; i++) if (p[i] >= 0) pred[order[i]] = order[p[i]];
      z.dijkstra.set(s, pred);
    }
    return pred;
  }

  /** Each zone's ancestors, itself first (cached: every host pair asks). */
  private ancestors(z: number): readonly number[] {
    let p = this.ancestry.get(z);
    if (!p) {
      p = [];
      for (let at = z; at >= 0; at = this.zones[at].parent) p.push(at);
      this.ancestry.set(z, p);
    }
    return p;
  }
  private readonly ancestry = new Map<number, number[]>();
  /** Routes between zones (a zone's local route between two of its zones) and to or from gateways, computed once. */
  private readonly betweenZones = new Map<number, { links: readonly number[]; gwSrc: number; gwDst: number }>();
  private readonly segments = new Map<number, readonly number[]>();

  /** NetZoneImpl::get_global_route: the common ancestor's route between the two sides' zones, and each side's way to its gateway. */
  globalRoute(src: number, dst: number, out: number[]): void {
    const [a, b] = [this.netpoints[src], this.netpoints[dst]];
    if (a.zone === b.zone) {
      this.localRoute(a.zone, a.local, b.local, out);
      return;
    }
    // find_common_ancestors: drop the shared root-side zones, keeping at least one on each side.
    const [ps, pd] = [this.ancestors(a.zone), this.ancestors(b.zone)];
    let [i, j] = [ps.length - 1, pd.length - 1];
    let common = -1;
    while (i > 0 && j > 0 && ps[i] === pd[j]) {
      common = ps[i];
      i--;
      j--;
    }
    const [sa, da] = [ps[i], pd[j]];
    if (sa === da || common < 0) {
      throw new InputError(this.zones[a.zone].where, `no route from ${a.name} to ${b.name}`, 'hosts in the same zone or in sibling zones (SimGrid 3.32 routes a host in a zone to a zone inside it nowhere)');
    }
    const [sn, dn] = [this.zones[sa].netpoint, this.zones[da].netpoint];
    const key = sn * this.netpoints.length + dn;
    let gw = this.betweenZones.get(key);
    if (!gw) {
      const links: number[] = [];
      gw = { links, ...this.localRoute(common, this.netpoints[sn].local, this.netpoints[dn].local, links) };
      if (gw.gwSrc < 0 || gw.gwDst < 0) throw new InputError(this.zones[common].where, `no gateways from ${this.netpoints[sn].name} to ${this.netpoints[dn].name}`, 'a <zoneRoute> with gw_src and gw_dst');
      this.betweenZones.set(key, gw);
    }
    if (src !== gw.gwSrc) appendAll(out, this.segment(src, gw.gwSrc));
    appendAll(out, gw.links);
    if (dst !== gw.gwDst) appendAll(out, this.segment(gw.gwDst, dst));
  }

  /** globalRoute between a host and a gateway (or two gateways), computed once: many host pairs share it. */
  segment(src: number, dst: number): readonly number[] {
    const key = src * this.netpoints.length + dst;
    let links = this.segments.get(key);
    if (!links) {
      const out: number[] = [];
      this.globalRoute(src, dst, out);
      this.segments.set(key, (links = out));
    }
    return links;
  }

}

/**
 * Each host's route to itself, as SimGrid 3.32 routes it, as channels per host (CSR), or undefined when
 * no host has one (a message to oneself then crosses nothing): a Full zone's declared
 * `<route src="h" dst="h">` (small_platform.xml's loopback); in a FLAT cluster (StarZone) its
 * loopback, or else its links up, then down, each link once (StarZone::get_local_route). `declared`:
 * whether some host's is a Full zone's declared route, which need not be a path of the graph.
 */
function selfRoutes(p: PlatformReader, hosts: readonly number[]): { start: Int32Array; channels: Int32Array; declared: boolean } | undefined {
  const start = new Int32Array(hosts.length + 1);
  const channels: number[] = [];
  let declared = false;
  const route: number[] = [];
  hosts.forEach((h, i) => {
    start[i] = channels.length;
    const np = p.netpoints[h];
    const z = p.zones[np.zone];
    route.length = 0;
    if (z.routing === 'Full') {
      const own = z.table.get(np.local * PAIR + np.local);
      if (own) appendAll(route, own.links);
      declared ||= own !== undefined;
    } else if (z.routing === 'Star') {
      const loopback = z.loopback.get(np.local);
      if (loopback !== undefined) route.push(loopback);
      else if (z.up.has(np.local) && z.down.has(np.local)) p.localRoute(np.zone, np.local, np.local, route);
    }
    appendAll(channels, route.map((e) => (e < 0 ? ~e : e)));
  });
  start[hosts.length] = channels.length;
  return channels.length > 0 ? { start, channels: Int32Array.from(channels), declared } : undefined;
}

/** The routing a zone was declared with (a Cluster zone is built as SimGrid's StarZone, as a FLAT <cluster> is). */
const routingOf = (z: Zone): string => (z.clusterZone ? 'Cluster' : z.routing);

/** SimGrid speeds: one or more (pstates) values such as 1Gf, 98.095Mf, 1e9f. */
function checkSpeed(text: string, field: string): void {
  for (const part of text.split(',')) {
    if (!/^\s*\d+(\.\d*)?([eE][-+]?\d+)?\s*([kKMGTPEZY]i?)?(f|flops)\s*$/.test(part)) throw new InputError(field, text, 'speeds such as 1Gf or 100Mf,50Mf (one per pstate)');
  }
}

/** Host numbers of a cluster radical: "0-99" or "0-3,8,10-11". */
function radicals(radical: string, field: string): number[] {
  const out: number[] = [];
  for (const part of radical.split(',')) {
    const m = /^\s*(\d+)(?:\s*-\s*(\d+))?\s*$/.exec(part);
    if (!m || (m[2] !== undefined && Number(m[2]) < Number(m[1]))) throw new InputError(field, radical, 'host numbers and ranges such as 0-99 or 0-3,8,10-11');
    const [from, to] = [Number(m[1]), Number(m[2] ?? m[1])];
    if (out.length + to - from + 1 > 1 << 20) throw new LimitError(field, radical, `${1 << 20} hosts in a cluster`);
    for (let i = from; i <= to; i++) out.push(i);
  }
  return out;
}

/** A hostfile's hosts as netpoints, rank by rank: each entry a host's name, or its number in declaration order. */
function hostfileHosts(p: PlatformReader, hostfile: SimgridHostfile): number[] {
  const byEntry = (entry: string): number | undefined => {
    const named = p.byName.get(entry);
    return named !== undefined && p.netpoints[named].kind === 'host' ? named : /^\d+$/.test(entry) ? p.hosts[Number(entry)] : undefined;
  };
  return resolveHostfile(hostfile, byEntry, `the name of one of the platform's ${p.hosts.length} hosts, or its number (0 to ${p.hosts.length - 1}) in declaration order`);
}

/** Union–find over host nodes and channel ends (host h: h; channel c: tail H + 2c, head H + 2c + 1). */
function find(parent: Int32Array, v: number): number {
  while (parent[v] !== v) {
    parent[v] = parent[parent[v]];
    v = parent[v];
  }
  return v;
}


/**
 * The topology of a SimGrid platform of zones: hosts are nodes 0..N−1 in declaration order (rank
 * order), every ordered pair's route as SimGrid 3.32 computes it (ExplicitRoutes). With a hostfile,
 * only its hosts, in its order (rank r on the r-th entry): routes are computed for those pairs alone,
 * as smpirun routes only the hosts it runs on.
 */
export function simgridZoneTopology(text: string, field = 'simgrid', hostfile?: SimgridHostfile): Topology {
  const p = new PlatformReader(field);
  p.read(text);
  // A host the hostfile lists several times is routed once; its ranks share it (applyHostList below).
  const listed = hostfile ? hostfileHosts(p, hostfile) : p.hosts;
  const hosts = [...new Set(listed)];
  const H = hosts.length;
  const C = p.chName.length;
  // Refused before the table is allocated: every route has at least one link.
  if (H * (H - 1) > MAX_SIMGRID_ROUTE_ENTRIES) {
    throw new LimitError(field, `${H} hosts (${H * (H - 1)} routes)`, `${MAX_SIMGRID_ROUTE_ENTRIES} link ids in the route table (MAX_SIMGRID_ROUTE_ENTRIES: one per link of each ordered host pair's route)`);
  }
  const start = new Int32Array(H * H + 1);
  let channels = new Int32Array(Math.min(MAX_SIMGRID_ROUTE_ENTRIES, Math.max(16, H * (H - 1))));
  let used = 0;
  let maxHops = 0;
  let reversed = -1;
  const parent = Int32Array.from({ length: H + 2 * C }, (_, i) => i);
  const joined = new Int32Array(H + 2 * C).fill(-1);
  const union = (x: number, y: number): void => {
    const [rx, ry] = [find(parent, x), find(parent, y)];
    if (rx !== ry) parent[Math.max(rx, ry)] = Math.min(rx, ry);
  };
  // A SPLITDUPLEX link's halves join the same two nodes, each the other way.
  for (const l of p.links.values()) {
    if (!l.split) continue;
    union(H + 2 * l.channels[0], H + 2 * l.channels[1] + 1);
    union(H + 2 * l.channels[0] + 1, H + 2 * l.channels[1]);
  }
  // Per channel, the one host whose routes it starts (ends), -1 for several, -2 for none: the fallback graph's ends.
  const firstHost = new Int32Array(C).fill(-2);
  const lastHost = new Int32Array(C).fill(-2);
  const note = (of: Int32Array, c: number, h: number): void => {
    of[c] = of[c] === -2 || of[c] === h ? h : -1;
  };
  const route: number[] = [];
  for (let a = 0; a < H; a++) {
    for (let b = 0; b < H; b++) {
      start[a * H + b] = used;
      if (a === b) continue;
      route.length = 0;
      p.globalRoute(hosts[a], hosts[b], route);
      if (route.length === 0) throw new InputError(field, `an empty route from ${p.netpoints[hosts[a]].name} to ${p.netpoints[hosts[b]].name}`, 'a route of at least one link for every pair of hosts');
      if (used + route.length > MAX_SIMGRID_ROUTE_ENTRIES) {
        throw new LimitError(field, `${H} hosts (more than ${MAX_SIMGRID_ROUTE_ENTRIES} link ids of routes)`, `${MAX_SIMGRID_ROUTE_ENTRIES} link ids in the route table (MAX_SIMGRID_ROUTE_ENTRIES: one per link of each ordered host pair's route)`);
      }
      if (used + route.length > channels.length) {
        const grown = new Int32Array(Math.min(MAX_SIMGRID_ROUTE_ENTRIES, 2 * (used + route.length)));
        grown.set(channels.subarray(0, used));
        channels = grown;
      }
      // The ends each step joins; most repeat from pair to pair, so the last one joined to each end is remembered.
      let at = a;
      for (const e of route) {
        const c = e < 0 ? ~e : e;
        if (e < 0 && reversed < 0) reversed = c;
        const enter = H + 2 * c + (e < 0 ? 1 : 0);
        if (joined[at] !== enter) union(at, (joined[at] = enter));
        at = H + 2 * c + (e < 0 ? 0 : 1);
        channels[used++] = c;
      }
      if (joined[at] !== b) union(at, (joined[at] = b));
      note(firstHost, route[0] < 0 ? ~route[0] : route[0], a);
      note(lastHost, route[route.length - 1] < 0 ? ~route[route.length - 1] : route[route.length - 1], b);
      maxHops = Math.max(maxHops, route.length);
    }
  }
  start[H * H] = used;
  const self = selfRoutes(p, hosts);
  // The graph the routes describe: one node per class; none when two hosts or a link's two ends fall together.
  let notGraph: string | undefined;
  for (let h = 0; h < H && !notGraph; h++) if (find(parent, h) !== h) notGraph = `routes make the hosts ${p.netpoints[hosts[find(parent, h)]].name} and ${p.netpoints[hosts[h]].name} one node`;
  for (let c = 0; c < C && !notGraph; c++) if (find(parent, H + 2 * c) === find(parent, H + 2 * c + 1)) notGraph = `routes enter and leave the link ${p.chName[c]} at one node`;
  const b = new TopologyBuilder(0, { nodes: H + 2 * C, channels: C });
  b.addNodes(NodeKind.Terminal, H);
  if (!notGraph) {
    const node = new Int32Array(H + 2 * C).fill(-1);
    for (let h = 0; h < H; h++) node[h] = h;
    const nodeOf = (end: number): number => {
      const root = find(parent, end);
      if (node[root] < 0) node[root] = b.addNode(NodeKind.Switch);
      return node[root];
    };
    for (let c = 0; c < C; c++) b.addChannel(nodeOf(H + 2 * c), nodeOf(H + 2 * c + 1), p.chClass[c], { bandwidth: p.chBandwidth[c], latency: p.chLatency[c] });
  } else {
    // No graph: a channel that starts one host's routes leaves that host for hub `in`; one that ends one
    // host's routes enters it from hub `out`; any other goes from `in` to `out` (each host's first and
    // last links stay its own, for the injection bounds; host to in, to out, to host is three hops).
    const [hubIn, hubOut] = [b.addNode(NodeKind.Switch), b.addNode(NodeKind.Switch)];
    for (let c = 0; c < C; c++) {
      const from = firstHost[c] >= 0 ? firstHost[c] : lastHost[c] >= 0 ? hubOut : hubIn;
      const to = lastHost[c] >= 0 && lastHost[c] !== from ? lastHost[c] : from === hubIn ? hubOut : hubIn;
      b.addChannel(from, to, p.chClass[c], { bandwidth: p.chBandwidth[c], latency: p.chLatency[c] });
    }
  }
  const notPaths =
    notGraph ??
    (reversed >= 0 ? `the ${p.fatpipe.has(reversed) ? 'FATPIPE' : 'SHARED'} link ${p.chName[reversed]} is crossed both ways (one capacity, no direction)` : self?.declared ? 'routes from a host to itself (a loopback link)' : undefined);
  const hostNames = hosts.map((h) => p.netpoints[h].name);
  const zones = p.zones.filter((z) => z.routing !== 'Star' || z.clusterZone);
  const built = b.build({
    family: 'simgrid-zone',
    spec: `simgrid-zone:hosts=${H},links=${C}`,
    params: {
      hosts: H,
      ...(hostfile ? { platformHosts: p.hosts.length, mapping: hostfile.label } : {}),
      channels: C,
      zones: zones.map((z) => `${z.name}:${routingOf(z)}`),
      clusters: p.zones.length - zones.length,
      routeEntries: used,
      graph: notGraph
        ? `none (${notGraph}): a link that starts (ends) one host's routes leaves (enters) that host, any other joins two hubs`
        : 'inferred from the routes (consecutive links meet at one node)',
      routes: "SimGrid 3.32's, per host pair (Full: as declared; Floyd, Dijkstra: fewest links, SimGrid's tie-breaks; FLAT clusters: private link, backbone, private link)",
    },
    distanceConvention: 'switches-traversed',
  });
  const fatpipe = p.fatpipe.size > 0 ? Uint8Array.from({ length: C }, (_, c) => (p.fatpipe.has(c) ? 1 : 0)) : undefined;
  const explicitRoutes: ExplicitRoutes = { hosts: H, start, channels: channels.slice(0, used), maxHops, hostNames, channelNames: p.chName, notPaths, hostfile: hostfile?.label, ...(self ? { self: { start: self.start, channels: self.channels } } : {}), ...(fatpipe ? { fatpipe } : {}) };
  const topology = new Topology({ ...built, explicitRoutes });
  if (listed.length === H) return topology;
  const indexOf = new Map(hosts.map((h, i) => [h, i]));
  return applyHostList(topology, listed.map((h) => indexOf.get(h)!), hostfile!.label, hostfile!.entries, `hostfile(${hostfile!.label})`);
}
