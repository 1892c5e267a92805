/**
 * Which hogs each co-location mode of the ODIN paper's Table 1 starts on this machine
 * (ARCHITECTURE §2). Pure: the Measure panel shows it, src/worlds/pipeline/measure/hogs.ts starts them.
 *
 * What a browser cannot do as the paper did (§4.1, Table 1): pin threads to cores, give
 * the CNN exactly 8 or 4 cores, or run the CNN on several threads (the wasm backend runs
 * single-threaded here, WASM_HAS_MULTITHREAD_SUPPORT off). So the mapping keeps Table 1's
 * *proportions* of the execution place, not its core numbers:
 * - a mode with n hog threads on the paper's 8-core EP starts max(1, round(n · C / 8))
 *   hogs of that kind on a machine with C logical cores (C = 8: exactly Table 1);
 * - the operating system places them; nothing is pinned;
 * - J–L ("CNN on 4 cores, hogs on the other 4") start the same count as 4 hogs on the
 *   other cores; the CNN's one thread is not confined, so J–L differ from D/H/L's
 *   "shared cores" only by what the scheduler does.
 * On this project's 2-core machine: B, C, D → 1 memBW hog; E → 2; F, G, H → 1 CPU hog;
 * I → 2; J → 1 memBW; K → 1 CPU; L → 1 CPU + 1 memBW. B–D (and F–H) then coincide, which
 * the Measure panel says.
 */
import { TABLE1_COLOCATIONS } from './roofline';
import type { ModeId } from './types';

/** Cores of the paper's execution place (§4.1: the 8 P-cores). */
export const PAPER_EP_CORES = 8;

/** How many hogs of each kind a mode starts. */
export interface HogPlan {
  readonly cpu: number;
  readonly memBW: number;
}

/** The hogs `mode` starts on a machine with `cores` logical cores (see the module comment). */
export function hogPlan(mode: ModeId, cores: number): HogPlan {
  if (!Number.isInteger(cores) || cores < 1) throw new RangeError(`cores must be a positive integer, got ${cores}`);
  const plan = { cpu: 0, memBW: 0 };
  for (const hog of TABLE1_COLOCATIONS[mode].hogs) {
    plan[hog.kind] += Math.max(1, Math.round((hog.cores.length * cores) / PAPER_EP_CORES));
  }
  return plan;
}

/** "alone", "1 memBW hog", "2 CPU hogs", "1 CPU hog + 1 memBW hog". */
export function describeHogPlan(plan: HogPlan): string {
  const parts: string[] = [];
  if (plan.cpu > 0) parts.push(`${plan.cpu} CPU hog${plan.cpu === 1 ? '' : 's'}`);
  if (plan.memBW > 0) parts.push(`${plan.memBW} memBW hog${plan.memBW === 1 ? '' : 's'}`);
  return parts.length === 0 ? 'alone' : parts.join(' + ');
}

