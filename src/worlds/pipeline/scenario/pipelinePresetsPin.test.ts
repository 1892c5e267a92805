import { describe, expect, it } from 'vitest';
import { pinTable } from './pipelinePresetsPin.reduce';
import pinned from './testing/pipelinePresetsPin.json';

/**
 * The pipeline presets must keep their numbers bit for bit when the random interference's
 * overlap rule and the trial-latency reading became named assumptions (ARCHITECTURE §2): both
 * default to the behaviour before. The fixture was computed by `pinTable` on the code before
 * those assumptions existed and must never be regenerated from newer code to make this pass.
 */
describe('the pipeline presets of before the overlap and trial-latency assumptions', () => {
  const now = pinTable();
  const table = pinned as Record<string, unknown[]>;
  it('covers every pipeline preset', () => {
    expect(Object.keys(now).sort()).toEqual(Object.keys(table).sort());
  });
  for (const id of Object.keys(table)) {
    it(`${id} gives the same numbers bit for bit`, () => {
      expect(now[id]).toEqual(table[id]);
    });
  }
});
