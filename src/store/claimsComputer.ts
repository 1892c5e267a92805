import type { RowComputer } from './claimsStore';

/**
 * Recomputes a row of the reproduction report with the claims registry (`scenario/claims.ts`).
 * Until the registry is in this build, a recomputation says so.
 */
export const registryComputer: RowComputer = {
  cells: () => 0,
  compute: (id) => Promise.reject(new Error(`${id}: the claims registry is not in this build`)),
};
