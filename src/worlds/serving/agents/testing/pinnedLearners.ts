import { createLearningFactory, type AgentLibrary } from '../registry';
import type { Tf } from '../../../../lib/tf';
import { parseAnyScenario } from '../../../../scenario/parse';
import { findPreset } from '../../../../scenario/presets';
import type { ServingScenario } from '../../schema';
import { runServingCell } from '../../scenario/servingRunner';
import { sweepCells } from '../../../../scenario/sweep';

/** The document the version pins run: two models of `learn-sanity` (res, mob), every learner from scratch with small warm-ups. */
export function pinnedLearnersDocument(version: number, durationS: number, assumptions: Record<string, unknown> = {}): Record<string, unknown> & { serving: ServingScenario['serving'] } {
  const doc = structuredClone(findPreset('learn-sanity')!.scenario) as unknown as Record<string, unknown> & { serving: ServingScenario['serving'] };
  doc.version = version;
  doc.serving.durationS = durationS;
  doc.serving.assumptions = { ...doc.serving.assumptions, ...assumptions } as ServingScenario['serving']['assumptions'];
  doc.serving.models = doc.serving.models.filter((m) => m.model === 'res' || m.model === 'mob');
  doc.serving.lanes = [
    { scheduler: 'bcedge', params: { warmup: 32 } },
    { scheduler: 'tac', params: { warmup: 32 } },
    { scheduler: 'ppo', params: { rolloutSize: 64 } },
    { scheduler: 'ddqn', params: { warmup: 32 } },
  ];
  return doc;
}

/** Opens a document (migrating it) and runs seed 1 (lanes with `pretrained = 1` start from `agents`): per lane [scheduler, utility, violations %, updates]. */
export function runPinnedLearners(tf: Tf, doc: Record<string, unknown>, agents: AgentLibrary = {}): { readonly scenario: ServingScenario; readonly rows: [string, number, number, number][] } {
  const parsed = parseAnyScenario(doc);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const scenario = parsed.scenario as ServingScenario;
  const results = runServingCell(scenario, sweepCells(scenario, [1])[0]!, () => 0, createLearningFactory(tf, { agents }));
  return { scenario, rows: results.map((r) => [r.scheduler, r.summary.utilityMean, r.summary.sloViolationPct, (r.summary.learning as { updates: number }).updates]) };
}
