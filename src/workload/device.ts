/**
 * Device models for compute nodes without a traced duration: a roofline of peak FLOP/s and memory
 * bandwidth (ASTRA-sim's roofline: time = num_ops / min(peak, intensity × bandwidth), which is
 * max(num_ops / peak, tensor_size / bandwidth)). Presets are the vendors' dense BF16/FP16
 * tensor-core peaks and HBM bandwidths; a user gives others as `peak=..,bw=..`.
 */
import { InputError } from '../util/errors.js';
import { Spec } from '../util/spec.js';

export interface DeviceModel {
  readonly name: string;
  /** FLOP/s. */
  readonly peakFlops: number;
  /** Bytes/s. */
  readonly memoryBandwidth: number;
}

export const DEVICE_PRESETS: Readonly<Record<string, DeviceModel>> = {
  /** NVIDIA H100 SXM: 989 TFLOP/s dense BF16, 3.35 TB/s HBM3. */
  h100: { name: 'h100', peakFlops: 989e12, memoryBandwidth: 3.35e12 },
  /** NVIDIA A100 SXM 80 GB: 312 TFLOP/s dense BF16, 2.039 TB/s HBM2e. */
  a100: { name: 'a100', peakFlops: 312e12, memoryBandwidth: 2.039e12 },
  /** NVIDIA V100 SXM2: 125 TFLOP/s FP16 tensor, 900 GB/s HBM2. */
  v100: { name: 'v100', peakFlops: 125e12, memoryBandwidth: 0.9e12 },
  /** AMD MI300X: 1307 TFLOP/s dense BF16, 5.3 TB/s HBM3. */
  mi300x: { name: 'mi300x', peakFlops: 1307e12, memoryBandwidth: 5.3e12 },
};

/** A preset name, or `custom:peak=500T,bw=2T` (FLOP/s and bytes/s, SI suffixes). */
export function resolveDevice(device: string | DeviceModel): DeviceModel {
  if (typeof device !== 'string') return device;
  const preset = DEVICE_PRESETS[device.trim().toLowerCase()];
  if (preset) return preset;
  const accepted = `a preset (${Object.keys(DEVICE_PRESETS).join(', ')}) or custom:peak=<FLOP/s>,bw=<bytes/s> such as custom:peak=500e12,bw=2e12`;
  let spec: Spec;
  try {
    spec = Spec.parse(device, 'device');
  } catch {
    throw new InputError('device', device, accepted);
  }
  if (spec.family !== 'custom') throw new InputError('device', device, accepted);
  const peak = spec.number('peak', { min: 1, default: NaN });
  const bw = spec.number('bw', { min: 1, default: NaN });
  spec.assertAllRead();
  if (!(peak > 0 && bw > 0)) throw new InputError('device', device, accepted);
  return { name: device, peakFlops: peak, memoryBandwidth: bw };
}
