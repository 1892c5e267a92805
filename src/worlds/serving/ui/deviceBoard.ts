/**
 * The device board's view of a tenant over simulated time (tenants that come and go,
 * ARCHITECTURE §3): scheduled (not on the device yet), present, or gone. Gone tenants leave the board;
 * scheduled ones wait on it, faded, with their arrival time.
 */
export type TenantState = 'scheduled' | 'present' | 'gone';

export interface TenantTimes {
  readonly fromMs: number;
  readonly toMs: number | null;
}

/** Where a tenant stands at `timeMs` (present on [fromMs, toMs)). */
export function tenantState(t: TenantTimes, timeMs: number): TenantState {
  if (timeMs < t.fromMs) return 'scheduled';
  if (t.toMs !== null && timeMs >= t.toMs) return 'gone';
  return 'present';
}

/** The chip's text: what it takes and when it arrives or leaves. */
export function tenantText(t: TenantTimes & { readonly intensity: number; readonly memoryMb: number }, timeMs: number): string {
  const what = `tenant ${Math.round(100 * t.intensity)} % GPU${t.memoryMb > 0 ? `, ${t.memoryMb >= 1000 ? `${(t.memoryMb / 1000).toFixed(1)} GB` : `${Math.round(t.memoryMb)} MB`}` : ''}`;
  const state = tenantState(t, timeMs);
  if (state === 'scheduled') return `${what} · arrives at ${Math.round(t.fromMs / 1000)} s`;
  if (state === 'present' && t.toMs !== null) return `${what} · until ${Math.round(t.toMs / 1000)} s`;
  return what;
}
