// The composition root first: it hands the list of worlds to the kit (ARCHITECTURE §7b).
import '../src/worlds';
/**
 * One long default run in its own process, for the memory rows of `npm run bench`: prints
 * the peak resident set (process.resourceUsage().maxRSS, kB) and the lanes' percentiles.
 * Usage: tsx bench/memoryChild.ts <queries> <streaming|exact>
 */
import { parseAnyScenario } from '../src/scenario/parse';
import { runPipelineScenario } from '../src/worlds/pipeline/scenario/pipelineRunner';
import { findPreset } from '../src/scenario/presets';
import type { PipelineScenario } from '../src/worlds/pipeline/schema';

const queries = Number(process.argv[2]);
const method = process.argv[3];
const preset = findPreset('default')!.scenario as PipelineScenario;
const parsed = parseAnyScenario({ ...preset, pipeline: { ...preset.pipeline, queries }, metrics: { percentiles: method } });
if (!parsed.ok || parsed.scenario.world !== 'pipeline') throw new Error(JSON.stringify(parsed));
const results = runPipelineScenario(parsed.scenario);
process.stdout.write(
  `${JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, percentiles: results.map((r) => [r.summary.latencyP50Ms, r.summary.latencyP99Ms, r.summary.configLatencyP99Ms]) })}\n`,
);
