/**
 * Segment sizes of SimGrid SMPI 3.32's segmented broadcasts, shared by the algorithms and by the SMPI
 * names that resolve to them (smpi-names.ts); no imports, so smpi-names.ts need not load the registry.
 */

/** bcast_NTSB_segment_size_in_byte (bcast-NTSB.cpp), also SMP_binary's, NTSL's and flattree_pipeline's: bytes with MPI_BYTE. */
export const NTSB_SEGMENT = 8192;

/** Open MPI's segment for the split binary tree (bcast-ompi-split-bintree.cpp): 1 KiB below 370,728 B, else 8 KiB. */
export function splitBintreeSegment(size: number): number {
  return size < 370728 ? 1024 : 8192;
}
