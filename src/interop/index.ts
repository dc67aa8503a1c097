/** Formats of other tools: MSCCL-XML schedules in and out. Platform-neutral (files: src/node/interop.ts). */
export * from './xml.js';
export * from './msccl/index.js';
export * from './anynet.js';
export * from './graphml.js';
export * from './simgrid.js';
export { simgridZoneTopology, MAX_SIMGRID_ROUTE_ENTRIES, MAX_SIMGRID_SHORTEST_PATH_VERTICES } from './simgrid-platform.js';
export * from './schedule-text.js';
export * from './topology-file.js';
export * from './file-detect.js';
