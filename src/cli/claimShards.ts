import { createHash } from 'node:crypto';
import type { Claim } from '../scenario/claimModel';
import { planRows, type ClaimsPlan, type PlanShard } from '../scenario/claims';
import type { LearningRuns } from '../scenario/learningRuns';
import type { ClaimRow, ClaimsShardProvenance } from '../scenario/claimsReport';
import { cellKey, sweepCells } from '../scenario/sweep';
import type { CellOutcome } from '../scenario/sweepReport';
import { UsageError } from './io';
import { MAX_SHARDS } from './shards';

/**
 * The claims report in shards (README, "Does it reproduce the papers?"): `claims --shard I/N`
 * runs the plan-wide cells i with i mod N = I of the claims' plan (`planClaims`: every distinct
 * scenario × seeds once, in the registry's order) and writes a shard document; `claims merge`
 * checks the documents against each other and against this checkout's plan and rebuilds the
 * rows one unsharded run computes (`planRows` of the same outcomes). The batch engines set
 * the index as for sweeps (cli/shards.ts: `--shards N` with JOB_COMPLETION_INDEX or a Slurm
 * array).
 */

export const CLAIMS_SHARD_KIND = 'claims-shard';
export const CLAIMS_SHARD_VERSION = 1;

/** What must be the same in every shard of one report; merge names the field that is not. */
export interface ClaimsShardPlan {
  /** `git rev-parse --short HEAD` of the code that ran the shard. */
  readonly commit: string;
  /** The claims' ids, in registry order (`--paper`, `--claim`, `--skip-learning`). */
  readonly claims: readonly string[];
  /** Seeds per cell (`--seeds`). */
  readonly seeds: number;
  /** The learning rows' length and seed cap (`--learning-length`, `--learning-seeds`). */
  readonly learning: LearningRuns;
  /** A fingerprint of the claims' definitions and the plan's scenarios and seeds (`planFingerprint`). */
  readonly plan: string;
}

/** A shard document (`claims --shard I/N --out shard-I.json`). */
export interface ClaimsShardDocument {
  readonly kind: typeof CLAIMS_SHARD_KIND;
  readonly version: typeof CLAIMS_SHARD_VERSION;
  readonly plan: ClaimsShardPlan;
  readonly shard: PlanShard & { readonly cells: number };
  /** Cells of the whole plan. */
  readonly planCells: number;
  readonly ran: { readonly machine: string; readonly date: string; readonly durationS: number; readonly command: string };
  /** Each cell: its scenario (index in the plan), its index and key in that scenario's sweep, its seed and its lanes' results. */
  readonly cells: readonly (CellOutcome & { readonly scenario: number; readonly key: string })[];
}

/**
 * A fingerprint of what the rows depend on: the claims as defined (quotes, measures, rules,
 * readings) and every scenario of the plan with its seeds. Shards of different code, claims,
 * seeds or learning runs differ in it, and so does a checkout whose registry changed since
 * the shards ran (merge then refuses).
 */
export function planFingerprint(claims: readonly Claim[], plan: ClaimsPlan): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(claims));
  for (const s of plan.scenarios) hash.update(JSON.stringify([s.key, s.seeds]));
  return hash.digest('hex').slice(0, 16);
}

/** The shard document of a shard's outcomes (`runPlanCells` of that shard). */
export function claimsShardDocument(
  plan: ClaimsPlan,
  identity: ClaimsShardPlan,
  shard: PlanShard,
  outcomes: ReadonlyMap<string, readonly CellOutcome[]>,
  ran: ClaimsShardDocument['ran'],
): ClaimsShardDocument {
  const cells: (CellOutcome & { scenario: number; key: string })[] = [];
  plan.scenarios.forEach((s, i) => {
    const all = sweepCells(s.scenario, s.seeds);
    for (const o of outcomes.get(s.key) ?? []) cells.push({ scenario: i, index: o.index, key: cellKey(all[o.index]!), seed: o.seed, results: o.results });
  });
  return { kind: CLAIMS_SHARD_KIND, version: CLAIMS_SHARD_VERSION, plan: identity, shard: { ...shard, cells: cells.length }, planCells: plan.cells, ran, cells };
}

/** A merged set of shards: the plan they share, the rows, and where each shard ran. */
export interface MergedClaims {
  readonly plan: ClaimsShardPlan;
  readonly rows: ClaimRow[];
  readonly shards: ClaimsShardProvenance[];
}

const IDENTITY_FIELDS = ['commit', 'claims', 'seeds', 'learning', 'plan'] as const;

/**
 * Checks claims shard documents against each other and against `planOf(identity)` — this
 * checkout's plan for the shards' claims, seeds and learning runs — and rebuilds the rows.
 * Refuses, naming the file and the field: text that is not a claims shard (a sweep's shard is
 * named as such), another commit, claim set, seed count, learning runs or plan than the first
 * file's, another shard count, a plan this checkout does not make (its registry changed since),
 * a cell that is not the plan's or not its shard's, a cell another file also holds; and,
 * naming the shards, cells no file holds.
 *
 * @throws UsageError with the message for the person.
 */
export function mergeClaimShards(
  files: readonly { readonly name: string; readonly text: string }[],
  planOf: (identity: ClaimsShardPlan) => { readonly claims: readonly Claim[]; readonly plan: ClaimsPlan },
): MergedClaims {
  if (files.length === 0) throw new UsageError('claims merge: needs the shard files (claims merge FILE...)');
  let first: { name: string; document: ClaimsShardDocument; plan: ClaimsPlan; cells: ReturnType<typeof sweepCells>[] } | null = null;
  const held = new Map<number, string>();
  const byScenario = new Map<number, CellOutcome[]>();
  const shards: ClaimsShardProvenance[] = [];
  const seenShards = new Map<number, string>();
  for (const file of files) {
    let document: unknown;
    try {
      document = JSON.parse(file.text);
    } catch (error) {
      throw new UsageError(`${file.name}: is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    const d = document as Partial<ClaimsShardDocument> & Record<string, unknown>;
    if (d === null || typeof d !== 'object' || Array.isArray(d)) throw new UsageError(`${file.name}: is not a claims shard (write one with claims --shard I/N --out FILE)`);
    if (d.kind !== CLAIMS_SHARD_KIND) {
      const sweep = typeof d['shard'] === 'object' && Array.isArray(d['seeds']) && 'scenario' in d;
      throw new UsageError(`${file.name}: kind: ${sweep ? "is a sweep's shard: merge it with merge FILE..." : `must be "${CLAIMS_SHARD_KIND}" (write one with claims --shard I/N --out FILE), got ${JSON.stringify(d.kind) ?? 'nothing'}`}`);
    }
    if (d.version !== CLAIMS_SHARD_VERSION) throw new UsageError(`${file.name}: version: must be ${CLAIMS_SHARD_VERSION}, got ${JSON.stringify(d.version) ?? 'nothing'}`);
    const identity = d.plan;
    if (identity === null || typeof identity !== 'object') throw new UsageError(`${file.name}: plan: is missing`);
    const shard = d.shard;
    if (shard === null || typeof shard !== 'object' || !Number.isInteger(shard.count) || shard.count < 1 || shard.count > MAX_SHARDS || !Number.isInteger(shard.index) || shard.index < 0 || shard.index >= shard.count) {
      throw new UsageError(`${file.name}: shard: must be an index from 0 below a count from 1 to ${MAX_SHARDS}, got ${JSON.stringify(shard)}`);
    }
    if (!Array.isArray(d.cells)) throw new UsageError(`${file.name}: cells: must be a list`);
    if (first === null) {
      const planned = planOf(identity);
      if (planned.plan.cells !== d.planCells) throw new UsageError(`${file.name}: planCells: ${String(d.planCells)}, but this checkout plans ${planned.plan.cells} cells for these claims`);
      first = { name: file.name, document: d as ClaimsShardDocument, plan: planned.plan, cells: planned.plan.scenarios.map((s) => sweepCells(s.scenario, s.seeds)) };
    } else {
      for (const field of IDENTITY_FIELDS) {
        const mine = JSON.stringify(identity[field]);
        const theirs = JSON.stringify(first.document.plan[field]);
        if (mine !== theirs) throw new UsageError(`${file.name}: plan.${field}: ${mine} differs from ${first.name}'s ${theirs}: shards of one report run the same ${FIELD_NAMES[field]}`);
      }
      if (shard.count !== first.document.shard.count) throw new UsageError(`${file.name}: shard.count: is one of ${shard.count} shards, ${first.name} one of ${first.document.shard.count}`);
    }
    const other = seenShards.get(shard.index);
    if (other !== undefined) throw new UsageError(`${file.name}: shard.index: shard ${shard.index}/${shard.count} is also ${other}`);
    seenShards.set(shard.index, file.name);
    const plan = first.plan;
    for (const c of d.cells as (Partial<ClaimsShardDocument['cells'][number]> | null)[]) {
      const s = typeof c?.scenario === 'number' ? plan.scenarios[c.scenario] : undefined;
      const expected = s !== undefined && typeof c?.index === 'number' ? first.cells[c.scenario!]![c.index] : undefined;
      if (s === undefined || expected === undefined || c!.key !== cellKey(expected) || c!.seed !== expected.seed || !Array.isArray(c!.results)) {
        throw new UsageError(`${file.name}: cells: ${JSON.stringify({ scenario: c?.scenario, index: c?.index })} is not a cell of these claims' plan`);
      }
      const global = s.first + expected.index;
      if (global % shard.count !== shard.index) throw new UsageError(`${file.name}: cells: cell ${global} of the plan belongs to shard ${global % shard.count}/${shard.count}, not ${shard.index}`);
      const also = held.get(global);
      if (also !== undefined) throw new UsageError(`${file.name}: cells: cell ${global} of the plan is also in ${also} (overlapping shards)`);
      held.set(global, file.name);
      const list = byScenario.get(c!.scenario!) ?? [];
      list.push({ index: expected.index, seed: expected.seed, results: c!.results! });
      byScenario.set(c!.scenario!, list);
    }
    const ran = d.ran;
    shards.push({
      index: shard.index,
      count: shard.count,
      cells: d.cells.length,
      machine: String(ran?.machine ?? 'unknown'),
      date: String(ran?.date ?? 'unknown'),
      durationS: typeof ran?.durationS === 'number' && Number.isFinite(ran.durationS) ? ran.durationS : 0,
      command: String(ran?.command ?? 'unknown'),
    });
  }
  const ref = first!;
  const plan = ref.plan;
  if (held.size < plan.cells) {
    const count = ref.document.shard.count;
    const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !seenShards.has(i));
    throw new UsageError(
      `claims merge: ${plan.cells - held.size} of the plan's ${plan.cells} cells are missing: no file holds shard${missing.length === 1 ? '' : 's'} ${missing.slice(0, 10).map((i) => `${i}/${count}`).join(', ')}${missing.length > 10 ? ', …' : ''}`,
    );
  }
  const outcomes = new Map(plan.scenarios.map((s, i) => [s.key, [...(byScenario.get(i) ?? [])].sort((x, y) => x.index - y.index)] as const));
  return { plan: ref.document.plan, rows: planRows(plan, outcomes), shards: shards.sort((x, y) => x.index - y.index) };
}

const FIELD_NAMES: Record<(typeof IDENTITY_FIELDS)[number], string> = {
  commit: 'commit',
  claims: 'claims',
  seeds: 'seeds',
  learning: 'learning runs (--learning-length, --learning-seeds)',
  plan: 'plan (claims, scenarios and seeds)',
};
