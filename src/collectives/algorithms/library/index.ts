/** The collective libraries' algorithms (NCCL/RCCL, issue 25): importing this module registers them. */
import './ring.js';
import './direct.js';
import './hierarchical.js';
import './pick.js';
