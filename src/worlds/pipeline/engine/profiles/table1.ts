/**
 * ODIN Table 1 as data: which cores the CNN and each hog get in every co-location mode. Apart
 * from the roofline (`roofline.ts`, which re-exports it) so that the mode labels of the page's
 * palette do not bring the roofline model into the first load (ARCHITECTURE §7a′).
 */
import type { ModeId } from './types';

/** The two iBench workloads of §4.1. */
export type HogKind = 'cpu' | 'memBW';

/** Hog threads of one kind, one pinned to each listed core. */
export interface HogPlacement {
  readonly kind: HogKind;
  readonly cores: readonly number[];
}

/** One row of the paper's Table 1: where the CNN and the hogs are pinned. */
export interface CoLocation {
  readonly cnnCores: readonly number[];
  readonly hogs: readonly HogPlacement[];
}

function coreRange(first: number, last: number): readonly number[] {
  const cores: number[] = [];
  for (let core = first; core <= last; core += 1) cores.push(core);
  return Object.freeze(cores);
}

function colocation(cnnCores: readonly number[], ...hogs: HogPlacement[]): CoLocation {
  return Object.freeze({ cnnCores, hogs: Object.freeze(hogs.map((h) => Object.freeze(h))) });
}

const ALL = coreRange(0, 7);
const LOW = coreRange(0, 3);
const HIGH = coreRange(4, 7);

/**
 * Table 1 of the paper, as data. We read each "IBench-X: [cores]" as one hog thread per
 * listed core (the paper says threads are pinned to cores, not how many per core).
 */
export const TABLE1_COLOCATIONS: Readonly<Record<ModeId, CoLocation>> = Object.freeze({
  A: colocation(ALL),
  B: colocation(ALL, { kind: 'memBW', cores: coreRange(0, 0) }),
  C: colocation(ALL, { kind: 'memBW', cores: coreRange(0, 1) }),
  D: colocation(ALL, { kind: 'memBW', cores: LOW }),
  E: colocation(ALL, { kind: 'memBW', cores: ALL }),
  F: colocation(ALL, { kind: 'cpu', cores: coreRange(0, 0) }),
  G: colocation(ALL, { kind: 'cpu', cores: coreRange(0, 1) }),
  H: colocation(ALL, { kind: 'cpu', cores: LOW }),
  I: colocation(ALL, { kind: 'cpu', cores: ALL }),
  J: colocation(LOW, { kind: 'memBW', cores: HIGH }),
  K: colocation(LOW, { kind: 'cpu', cores: HIGH }),
  L: colocation(LOW, { kind: 'cpu', cores: HIGH }, { kind: 'memBW', cores: HIGH }),
});

