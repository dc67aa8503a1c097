/**
 * Every built-in topology family, registered by registry.ts when it loads: adding a family is its
 * generator file (exporting a TopologyFamily), its test, and one entry here.
 */
import { InputError } from '../util/errors.js';
import type { Spec } from '../util/spec.js';
import type { Topology } from './graph.js';
import type { TopologyFamily } from './registry.js';
import { meshFamily, torusFamily } from './cartesian.js';
import { ringFamilyBidirectional, uringFamily } from './ring.js';
import { hypercubeFamily } from './hypercube.js';
import { fullmeshFamily } from './fullmesh.js';
import { fatTreeFamily } from './fattree.js';
import { twoLevelFamily } from './twolevel.js';
import { omegaFamily } from './omega.js';
import { flyFamily } from './fly.js';
import { dragonflyFamily } from './dragonfly.js';
import { dceFamilies, mdceFamily } from './mdce/families.js';
import { flatflyFamily, hyperxFamily } from './hyperx.js';
import { cmeshFamily } from './cmesh.js';
import { slimFlyFamily } from './slimfly.js';
import { polarFlyFamily } from './polarfly.js';
import { dragonflyPlusFamily } from './dragonflyplus.js';
import { jellyfishFamily } from './jellyfish.js';
import { circularOmegaFamily } from './mdce/circular-omega.js';
import { fabricFamilies } from './fabric.js';
import { tpuFamily } from './tpu.js';
import { astraFamily } from './astra.js';
import { simgridDragonflyFamily, simgridFatTreeFamily, simgridFlatFamily } from './simgrid-zones.js';

/** `file:` specs need a file system; in the core they are refused with a pointer to the adapter. */
const fileFamily: TopologyFamily = {
  name: 'file',
  usage: 'file:path.json (custom graph, or a YAML/JSON spec file; read by the CLI / loadTopology)',
  description: 'a custom graph in Meshwork JSON format (schemas/topology.schema.json)',
  build(spec: Spec): Topology {
    throw new InputError(spec.field('path'), spec.positional, 'file: specs only through the CLI or loadTopology (meshwork/node adapter); in the library call topologyFromDocument');
  },
};

export const BUILTIN_FAMILIES: readonly TopologyFamily[] = [
  ringFamilyBidirectional,
  uringFamily,
  meshFamily,
  torusFamily,
  hypercubeFamily,
  fullmeshFamily,
  fatTreeFamily,
  twoLevelFamily,
  omegaFamily,
  flyFamily,
  dragonflyFamily,
  hyperxFamily,
  flatflyFamily,
  cmeshFamily,
  slimFlyFamily,
  polarFlyFamily,
  dragonflyPlusFamily,
  jellyfishFamily,
  ...dceFamilies,
  mdceFamily,
  circularOmegaFamily,
  ...fabricFamilies,
  tpuFamily,
  simgridFatTreeFamily,
  simgridDragonflyFamily,
  simgridFlatFamily,
  astraFamily,
  fileFamily,
];
