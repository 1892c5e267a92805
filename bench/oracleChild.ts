// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
/**
 * The oracle lanes' full searches on `bcedge-dynamic` (3000 s) in a process of their own, as the
 * command line runs them (issue 38's target: ≤ 30 s on two cores in the CLI): in the bench's own
 * process they ran after the other oracle parts, whose runs of other shapes (lanes asked through
 * `decide`, searches in one thread) left the engine's code slower for them (30.6 s there against
 * 23.8 s fresh, the same searches). Prints the wall and CPU seconds (its search threads included),
 * the evaluations and the plans found.
 * Usage: tsx bench/oracleChild.ts
 */
import { availableParallelism } from 'node:os';
import { openSearchThreads } from '../src/worlds/serving/cli/searchThreads';
import { findPreset } from '../src/scenario/presets';
import type { ServingScenario } from '../src/worlds/serving/schema';
import { buildServingSpec } from '../src/worlds/serving/scenario/servingRunner';
import { useSearchEvaluator } from '../src/worlds/serving/schedulers/reference';
import { oracleLaneSearches } from './oracleLanes';

const threads = availableParallelism() - 1;
const evaluator = threads > 0 ? openSearchThreads(threads) : null;
useSearchEvaluator(evaluator);
const spec = buildServingSpec(findPreset('bcedge-dynamic')!.scenario as ServingScenario);
const t0 = performance.now();
const c0 = process.cpuUsage();
const results = oracleLaneSearches(spec, 0);
const c = process.cpuUsage(c0);
const s = (performance.now() - t0) / 1000;
useSearchEvaluator(null);
void evaluator?.close();
process.stdout.write(`${JSON.stringify({ s, cpuS: (c.user + c.system) / 1e6, threads: threads + 1, evaluations: results.map((r) => r.evaluations), plans: results.map((r) => [r.plan, r.utility]) })}\n`);
process.exit(0);
