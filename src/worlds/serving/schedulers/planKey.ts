import type { ServingRunSpec } from '../engine/spec';
import type { ReferenceSearchParams } from './reference';

/**
 * The key of a reference lane's plan (ARCHITECTURE §3): what the plan depends on, as one
 * string, and its short hash, under which plans computed ahead of time are shipped with the
 * presets (`oraclePlans.generated.ts`, written by `npm run oracle-plans`).
 */

/**
 * JSON with every object's keys in sorted order, so that two equal values give one string
 * whatever order their fields were written in. Undefined fields are left out, as
 * `JSON.stringify` does.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

/**
 * What a reference lane's plan depends on, as one string: its kind, the search's parameters
 * and the lane's engine spec (`buildServingSpec`: the trace, tenants, assumptions, seed).
 * The title, the view, the other lanes and the live edits are not in it: a plan is found on
 * the scenario's own run, before any edit (the command line's). `fixed-hindsight` reads no
 * phases, so its key leaves `phaseS` out, and a per-phase lane finds the hindsight search it
 * starts with under the same key.
 */
export function referencePlanKey(kind: 'fixed-hindsight' | 'fixed-per-phase', spec: ServingRunSpec, params: ReferenceSearchParams): string {
  const { phaseS, ...common } = params;
  return canonicalJson({ kind, params: kind === 'fixed-hindsight' ? common : { ...common, phaseS: phaseS ?? 0 }, spec });
}

/**
 * The version of the searches' rules (reference.ts): part of a shipped plan's hash, so that a
 * change to what a search finds (its grid, its ascent, its objective) is raised by one and every
 * shipped plan is then stale (the shipped-plans test fails until `npm run oracle-plans` runs).
 * A change that makes a search faster and finds the same plans keeps it.
 */
export const REFERENCE_SEARCH_VERSION = 1;

/** 2^32, to split a 64-bit FNV-1a state into two exact 32-bit halves. */
const TWO_32 = 0x1_0000_0000;

/**
 * 64-bit FNV-1a of a string's UTF-16 code units (each code unit as two bytes, low first), as 16
 * hex digits. Computed in two 32-bit halves with exact double arithmetic: the prime is
 * 2^40 + 0x1b3, so h·p = h·0x1b3 + (h ≪ 40), and h ≪ 40 reaches the high half only, as lo ≪ 8.
 * Synchronous and the same in the page, its workers and Node (the Web Crypto digest is
 * asynchronous); not for secrets, only to name a plan.
 */
export function fnv1a64(text: string): string {
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  const mix = (byte: number) => {
    lo = (lo ^ byte) >>> 0;
    const product = lo * 0x1b3;
    const carry = Math.floor(product / TWO_32);
    const nextLo = product - carry * TWO_32;
    hi = (Math.imul(hi, 0x1b3) + carry + ((lo << 8) >>> 0)) >>> 0;
    lo = nextLo >>> 0;
  };
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    mix(unit & 0xff);
    mix(unit >>> 8);
  }
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

/** The hash a plan of this key is shipped under: the search's version and the key (`referencePlanKey`). */
export function shippedPlanHash(key: string): string {
  return fnv1a64(`oracle-plan v${REFERENCE_SEARCH_VERSION}\n${key}`);
}
