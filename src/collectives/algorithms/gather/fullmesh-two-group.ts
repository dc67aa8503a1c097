/** gather `fullmesh-two-group` (seed 001 図29, the inverse of the scatter): see scatter/fullmesh-two-group.ts. */
import { registerTwoGroup } from '../scatter/fullmesh-two-group.js';

registerTwoGroup('gather');
