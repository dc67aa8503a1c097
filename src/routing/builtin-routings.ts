/**
 * Every built-in routing, registered by registry.ts when it loads: adding a routing is its file
 * (exporting a RoutingEntry), its test, and one entry here.
 */
import { dimensionOrderBalancedEntry, dimensionOrderEntry } from './dimension-order.js';
import { minAdaptEntry, planarAdaptEntry } from './min-adapt.js';
import { directEntry } from './full-mesh.js';
import { destinationTagEntry } from './omega.js';
import { dragonflyMinimalEntry, groupDirectEntry, ugalBookSimEntry, ugalEntry } from './dragonfly.js';
import { mdceEntry } from './mdce.js';
import { shuffleTagEntry } from './circular-omega.js';
import type { RoutingEntry } from './registry.js';
import { shortestPathEntry } from './shortest-path.js';
import { ancaEntry, ecmpEntry, ncaEntry, upDownEntry } from './up-down.js';
import { valiantEntry } from './valiant.js';
import { hopVcEntry } from './hop-vc.js';
import { adaptiveEntry, ugalGlobalEntry, ugalLocalEntry } from './adaptive.js';
import { flatflyAdaptiveXyYxEntry, flatflyUgalEntry, flatflyValiantEntry, flatflyXyYxEntry } from './flatfly.js';
import { dalEntry } from './dal.js';
import { adaptiveXyYxEntry, rommEntry, valiantDorEntry, xyYxEntry } from './booksim-mesh.js';
import { cmeshDorEntry, cmeshDorNoExpressEntry, cmeshXyYxEntry, cmeshXyYxNoExpressEntry } from './cmesh.js';
import { astraCongestionAwareEntry, astraFirstDimensionEntry } from './astra-first-dimension.js';
import { anynetMinEntry } from './anynet-min.js';
import { flyDestTagEntry } from './fly.js';
import { simgridDragonflyEntry, simgridFatTreeEntry, simgridZoneEntry } from './simgrid-zones.js';

export const BUILTIN_ROUTINGS: readonly RoutingEntry[] = [
  dimensionOrderEntry,
  shortestPathEntry,
  upDownEntry,
  ecmpEntry,
  ncaEntry,
  ancaEntry,
  valiantEntry,
  dragonflyMinimalEntry,
  ugalEntry,
  groupDirectEntry,
  ugalBookSimEntry,
  destinationTagEntry,
  directEntry,
  mdceEntry,
  shuffleTagEntry,
  hopVcEntry,
  adaptiveEntry,
  ugalLocalEntry,
  ugalGlobalEntry,
  flatflyUgalEntry,
  flatflyXyYxEntry,
  flatflyAdaptiveXyYxEntry,
  flatflyValiantEntry,
  dalEntry,
  rommEntry,
  valiantDorEntry,
  xyYxEntry,
  adaptiveXyYxEntry,
  planarAdaptEntry,
  cmeshDorEntry,
  cmeshDorNoExpressEntry,
  cmeshXyYxEntry,
  cmeshXyYxNoExpressEntry,
  simgridFatTreeEntry,
  simgridDragonflyEntry,
  simgridZoneEntry,
  anynetMinEntry,
  flyDestTagEntry,
  minAdaptEntry,
  dimensionOrderBalancedEntry,
  astraFirstDimensionEntry,
  astraCongestionAwareEntry,
];
