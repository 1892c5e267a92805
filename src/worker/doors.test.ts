import { describe, expect, it } from 'vitest';
import { encodeLinkJson, decodeAnyScenarioLink } from '../scenario/link';
import { decodePipelineScenarioLink } from '../worlds/pipeline/door';
import { parsePipelineScenarioJson } from '../worlds/pipeline/door';
import { defaultPipelineScenario } from '../worlds/pipeline/defaultPreset';
import { SERVING_PRESETS } from '../worlds/serving/presets';
import { formatErrors, type FieldError } from '../scenario/schema';
import type { PipelineFrame } from '../worlds/pipeline/worker/pipelineProtocol';
import type { ServingFrame } from '../worlds/serving/worker/servingProtocol';
import { ServingSession } from '../worlds/serving/worker/servingSession';
import { PipelineSession } from '../worlds/pipeline/worker/pipelineSession';
import { manualHost } from './testing/manualHost';

/**
 * One set of forbidden keys and one validation for every door (ARCHITECTURE §1, step 2): the page's
 * file import, the link, and the workers' `load` (a worker message) give the same field
 * message for the same document. The CLI's file and `--set` doors: src/cli/cli.test.ts.
 */
const pipelineWith = (key: string) => JSON.stringify(defaultPipelineScenario()).replace('"params":{', `"params":{"${key}":{"alpha":1},`);
const servingWith = (key: string) => JSON.stringify(SERVING_PRESETS[0]!.scenario).replace('"assumptions":{', `"assumptions":{"${key}":1,`);

function errorsOf(result: { ok: true } | { ok: false; errors: readonly FieldError[] }): string {
  return result.ok ? 'ok' : formatErrors(result.errors);
}

describe('every door refuses forbidden keys alike', () => {
  it.each(['__proto__', 'constructor', 'prototype'])('pipeline scenario with params.%s', (key) => {
    const text = pipelineWith(key);
    expect(text).toContain(`"${key}":{"alpha":1}`);
    const expected = `pipeline.lanes[0].params: has a forbidden field "${key}"`;
    expect(errorsOf(parsePipelineScenarioJson(text))).toBe(expected);
    expect(errorsOf(decodePipelineScenarioLink(encodeLinkJson(text)))).toBe(expected);
    expect(errorsOf(decodeAnyScenarioLink(encodeLinkJson(text)))).toBe(expected);
    // A worker message is a structured clone: own `__proto__` keys survive it.
    const message = structuredClone(JSON.parse(text) as unknown);
    expect(Object.keys((message as { pipeline: { lanes: { params: object }[] } }).pipeline.lanes[0]!.params)).toContain(key);
    expect(errorsOf(new PipelineSession(manualHost<PipelineFrame>().host).load(message))).toBe(expected);
  });

  it('serving scenario with a forbidden key in its assumptions', () => {
    const text = servingWith('__proto__');
    const expected = 'serving.assumptions: has a forbidden field "__proto__"';
    expect(errorsOf(decodeAnyScenarioLink(encodeLinkJson(text)))).toBe(expected);
    expect(errorsOf(new ServingSession(manualHost<ServingFrame>().host).load(structuredClone(JSON.parse(text) as unknown)))).toBe(expected);
  });

  it('pollutes nothing on the way', () => {
    parsePipelineScenarioJson(pipelineWith('__proto__'));
    expect(({} as Record<string, unknown>).alpha).toBeUndefined();
  });
});
