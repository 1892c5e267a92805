/**
 * The modes' labels for people, read off ODIN Table 1, apart from the databases (`databases.ts`)
 * so that the board's palette does not bring the layer shapes and the roofline into the page's
 * first load (ARCHITECTURE §7a′).
 */
import { TABLE1_COLOCATIONS, type HogPlacement } from './table1';
import type { ModeId } from './types';

function cores(n: number): string {
  return n === 1 ? '1 core' : `${n} cores`;
}

function hogLabel(kind: HogPlacement['kind']): string {
  return kind === 'cpu' ? 'CPU' : 'memBW';
}

/**
 * A short human label for `mode`, read off Table 1: "alone", "memBW hog on 4 cores",
 * "CPU hog on 1 core", "CNN on 4 cores + memBW hog on 4 others", … For the palette and
 * the CLI.
 */
export function describeMode(mode: ModeId): string {
  const row = TABLE1_COLOCATIONS[mode];
  if (row.hogs.length === 0) return 'alone';
  const kinds = row.hogs.map((hog) => hogLabel(hog.kind));
  const hogs = kinds.length === 1 ? `${kinds.join('')} hog` : `${kinds.join(' and ')} hogs`;
  // Every Table 1 row puts all its hogs on the same cores; the first one stands for all.
  const hogCores = row.hogs[0]?.cores ?? [];
  const shared = hogCores.some((core) => row.cnnCores.includes(core));
  if (shared) return `${hogs} on ${cores(hogCores.length)}`;
  return `CNN on ${cores(row.cnnCores.length)} + ${hogs} on ${hogCores.length} others`;
}
