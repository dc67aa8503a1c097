/** reduce `fullmesh-turnaround` (seed 001, 4th–6th embodiments): see allreduce/fullmesh-turnaround.ts. */
import { registerFullmeshTurnaround } from '../allreduce/fullmesh-turnaround.js';

registerFullmeshTurnaround('reduce');
