import { parseWorldScenario, parseWorldScenarioJson, type Migration } from '../../scenario/parse';
import { MIGRATIONS } from '../../scenario/parse';
import type { PipelineScenarioResult } from '../../scenario/schema';
import { pipelineWorld } from './world';

/**
 * The pipeline lab's door from anywhere (URL, import, worker message): any value in, a valid
 * current-version pipeline scenario or field-level errors out. Never throws.
 */
export function parsePipelineScenario(input: unknown, migrations: readonly Migration[] = MIGRATIONS): PipelineScenarioResult {
  return parseWorldScenario(pipelineWorld, input, migrations);
}

/** Parses JSON text and validates it; a syntax error is reported like any other. */
export function parsePipelineScenarioJson(text: string): PipelineScenarioResult {
  return parseWorldScenarioJson(pipelineWorld, text);
}
