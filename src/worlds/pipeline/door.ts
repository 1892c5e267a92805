import { parseWorldScenario, parseWorldScenarioJson, type Migration } from '../../scenario/parse';
import { MIGRATIONS } from '../../scenario/parse';
import { encodeAnyScenarioLink } from '../../scenario/link';
import { unpackLink } from '../../scenario/linkPacking';
import type { PipelineScenario, PipelineScenarioResult } from './schema';
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

/** The link of a pipeline scenario (the kit's `encodeAnyScenarioLink`, typed); throws like it on an invalid one. */
export function encodePipelineScenarioLink(scenario: PipelineScenario): string {
  return encodeAnyScenarioLink(scenario);
}

/**
 * Opens a link through the pipeline lab's door (`parsePipelineScenario`): the kit's checks of
 * the link (`decodeAnyScenarioLink`), then a link of another world is refused by its `world`
 * field. Never throws.
 */
export function decodePipelineScenarioLink(hash: string): PipelineScenarioResult {
  const value = unpackLink(hash);
  return 'errors' in value ? value : parsePipelineScenario(value.json);
}
