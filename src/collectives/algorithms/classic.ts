/** The classic algorithms: importing this module registers them (one file each). */
import './alltoall/linear.js';
import './alltoall/pairwise.js';
