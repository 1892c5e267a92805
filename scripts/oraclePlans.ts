// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
/**
 * `npm run oracle-plans`: searches the reference plans every serving preset asks for
 * (`presetOraclePlanRequests`) and writes them to src/worlds/serving/schedulers/oraclePlans.generated.ts,
 * keyed by `shippedPlanHash` of each lane's `referencePlanKey` (ARCHITECTURE §3). Run it after a
 * change to a serving preset, to the engine or to the searches' rules: `shippedPlans.test.ts`
 * fails while the file is stale. The searches are the command line's (reference.ts, on every core
 * through worlds/serving/cli/searchThreads.ts), each starting from the one it begins with when found before.
 *
 * Options: `--only <preset>` searches that preset's plans alone and keeps the others' from the
 * file as it is (those still current).
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { openSearchThreads } from '../src/worlds/serving/cli/searchThreads';
import { presetOraclePlanRequests, type OraclePlanRequest } from '../src/worlds/serving/scenario/oraclePlanRequests';
import { ORACLE_PLANS } from '../src/worlds/serving/schedulers/oraclePlans.generated';
import type { ShippedOraclePlan } from '../src/worlds/serving/schedulers/oraclePlanTypes';
import { referencePlanKey, shippedPlanHash } from '../src/worlds/serving/schedulers/planKey';
import { fixedInHindsightSearch, fixedPerPhaseSearch, runSearch, useSearchEvaluator, type ReferenceResult } from '../src/worlds/serving/schedulers/reference';

const OUT = fileURLToPath(new URL('../src/worlds/serving/schedulers/oraclePlans.generated.ts', import.meta.url));

function main(): void {
  const onlyAt = process.argv.indexOf('--only');
  const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
  const requests = presetOraclePlanRequests();
  const threads = availableParallelism() - 1;
  const evaluator = threads > 0 ? openSearchThreads(threads) : null;
  useSearchEvaluator(evaluator);
  const found = new Map<string, ReferenceResult>();
  const plans: Record<string, ShippedOraclePlan> = {};
  try {
    for (const request of requests) {
      const hash = shippedPlanHash(request.key);
      const kept = ORACLE_PLANS[hash];
      if (only !== undefined && request.preset !== only && kept !== undefined) {
        plans[hash] = kept;
        found.set(request.key, kept.result);
        continue;
      }
      const t0 = performance.now();
      const result = search(request, found);
      found.set(request.key, result);
      plans[hash] = { preset: request.preset, lane: request.lane, ...(request.copy === undefined ? {} : { copy: request.copy }), kind: request.kind, result };
      console.log(`${request.preset} lane ${request.lane}${request.copy === undefined ? '' : ` copy ${request.copy}`} ${request.kind}: ${result.evaluations} evaluations, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
  } finally {
    useSearchEvaluator(null);
    void evaluator?.close();
  }
  const lines = [
    '// Written by `npm run oracle-plans` (scripts/oraclePlans.ts); do not edit by hand.',
    "import type { ShippedOraclePlan } from './oraclePlanTypes';",
    '',
    '/** The presets’ reference plans, by `shippedPlanHash` of their key (`referencePlanKey`). */',
    'export const ORACLE_PLANS: Readonly<Record<string, ShippedOraclePlan>> = {',
    ...Object.entries(plans).map(([hash, plan]) => `  '${hash}': ${JSON.stringify(plan)},`),
    '};',
    '',
  ];
  writeFileSync(OUT, lines.join('\n'));
  console.log(`${Object.keys(plans).length} plans written to ${OUT}`);
}

/** One request's search, from the one it begins with when found before (as the page and the command line do). */
function search(request: OraclePlanRequest, found: ReadonlyMap<string, ReferenceResult>): ReferenceResult {
  const { kind, spec, params } = request;
  if (kind === 'fixed-per-phase') return runSearch(fixedPerPhaseSearch(spec, params, found.get(referencePlanKey('fixed-hindsight', spec, params))));
  const uniform = params.perModel ? found.get(referencePlanKey('fixed-hindsight', spec, { ...params, perModel: false })) : undefined;
  return runSearch(fixedInHindsightSearch(spec, params, uniform));
}

main();
