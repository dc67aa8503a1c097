/** The collective libraries' algorithms (NCCL/RCCL, issue 25): importing this module registers them. */
import './ring.js';
import './direct.js';
import './hierarchical.js';
import './tree.js';
import './nvls.js';
import './nvls-tree.js';
import './pat.js';
import './pick.js';
export { tuneCollective, libraryMachine, LIBRARY_MACHINES, LIBRARY_MACHINE_NAMES, LIBRARY_NAMES, type LibraryMachine, type ProtocolTiming, type TuningChoice, type TuningCandidate } from './tuning.js';
export { LIBRARY_PROTOCOLS, layoutOf, channelRing, meshRings, type LibraryProtocol, type MachineLayout } from './layout.js';
