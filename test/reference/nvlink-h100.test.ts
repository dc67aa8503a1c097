/**
 * One HGX H100 node (8 GPUs on NVSwitch, NVLink4: 18 links of 25 GB/s a direction) against public
 * all_reduce_perf figures, at 8 GiB where the bandwidth term is all. The preset models physical
 * parameters only: NCCL's own NVLink4 bandwidth, 20.6 of 25 GB/s per link (NVIDIA/nccl topo.h
 * SM90_NVLINK_BW), NCCL's Hopper nvlsEfficiency 0.85 (tuning.cc), and the bytes an NVLS allreduce
 * moves on each link, S (1 + 1/G) each way (multimem.ld_reduce, then multimem.st).
 * - Ring: "NCCL can get an effective NVLink bandwidth of 370GB/s, which you can observe as BusBw
 *   ... when running with NCCL_ALGO=RING" (NCCL maintainer, NVIDIA/nccl-tests#212); 365-370 GB/s
 *   for 2 to 8 GPUs (NVIDIA/nccl#1455).
 * - NVLS: "On 8 GPUs, you should reach a peak busBw of ~480GB/s (algbw ~275GB/s)"
 *   (NVIDIA/nccl-tests#212); NVIDIA/nccl#1455, NCCL_ALGO=NVLS at 2-4 GiB: busbw 420, 440, 460, 480
 *   and algbw 258, 265, 270, 273 GB/s on 5, 6, 7, 8 GPUs.
 */
import { describe, expect, it } from 'vitest';
import { buildTopology, simulateCollective } from '../../src/index.js';

const SIZE = 8 * 2 ** 30;

function ncclTests(spec: string, algorithm: string): { algbw: number; busbw: number } {
  const r = simulateCollective({ topology: buildTopology(spec), collective: 'allreduce', algorithm, size: SIZE });
  const bw = r.bandwidth!;
  return { algbw: bw.algbw_Bps / 1e9, busbw: bw.busbw_Bps / 1e9 };
}

describe('HGX H100, one node: allreduce bandwidth against published nccl-tests figures', () => {
  it('ring (Simple): busbw within 2 % of the 370 GB/s NCCL reaches on NVLink4', () => {
    expect(Math.abs(ncclTests('hgx-h100', 'nccl-ring:proto=Simple').busbw / 370 - 1)).toBeLessThan(0.02);
  });

  it('NVLS on 5-8 GPUs: algbw and busbw within 3 % of NVIDIA/nccl#1455 (and of the ~480 GB/s busbw at 8)', () => {
    const measured: Array<[number, number, number]> = [
      [5, 258, 420],
      [6, 265, 440],
      [7, 270, 460],
      [8, 273, 480],
    ];
    for (const [gpus, algbw, busbw] of measured) {
      const r = ncclTests(`hgx-h100:gpus=${gpus}`, 'nvls');
      expect(Math.abs(r.algbw / algbw - 1), `${gpus} GPUs algbw ${r.algbw}`).toBeLessThan(0.03);
      expect(Math.abs(r.busbw / busbw - 1), `${gpus} GPUs busbw ${r.busbw}`).toBeLessThan(0.03);
    }
  });

  it('what NCCL picks at 8 GiB is NVLS, at 489.9 GB/s busbw (was 668.6 with NVLS at line rate and one S per link)', () => {
    const r = simulateCollective({ topology: buildTopology('hgx-h100'), collective: 'allreduce', algorithm: 'nccl', size: SIZE });
    expect(r.workload!.algorithm_spec).toMatch(/^nvls:/);
    expect(r.bandwidth!.busbw_Bps / 1e9).toBeCloseTo(489.87, 1);
  });
});
