import { describe, expect, it } from 'vitest';
import { defaultScenario } from '../scenario/presets';
import type { Scenario } from '../scenario/schema';
import { inProcessLab } from './testing/inProcess';

/** The session's own playback status (the store hears of it only with the next frame). */
const statusOf = (session: unknown) => (session as { status: string }).status;

/** The default scenario made to cost 64 cells × 10 M queries × 4 lanes (2.6·10⁹ lane-queries). */
function huge(): Scenario {
  const s = defaultScenario();
  const values = [1, 2, 3, 4, 5, 6, 7, 8];
  return {
    ...s,
    pipeline: { ...s.pipeline, queries: 10_000_000 },
    sweep: {
      axes: [
        { path: 'pipeline.interference.random.periodQueries', values },
        { path: 'pipeline.interference.random.durationQueries', values },
      ],
    },
  };
}

describe('the page asks before starting a long run (issue 17 part 4)', () => {
  it('shows the estimate and does not start when the person declines', async () => {
    const asked: string[] = [];
    const { store, session } = inProcessLab((message) => (asked.push(message), false));
    expect(await store.getState().load(huge(), 'file')).toBe(true);
    await store.getState().play();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('2.6e+9 lane-queries (64 cells × 10000000 queries × 4 lanes)');
    expect(asked[0]).toContain('Start it anyway?');
    expect(statusOf(session)).toBe('paused');
  });

  it('starts when the person agrees, and asks once per scenario', async () => {
    const asked: string[] = [];
    const { store, session } = inProcessLab((message) => (asked.push(message), true));
    await store.getState().load(huge(), 'file');
    await store.getState().play();
    await store.getState().pause();
    await store.getState().play();
    expect(asked).toHaveLength(1);
    expect(statusOf(session)).toBe('playing');
  });

  it('never asks for a scenario below the bound', async () => {
    const asked: string[] = [];
    const { store, session } = inProcessLab((message) => (asked.push(message), false));
    await store.getState().load(defaultScenario(), 'preset');
    await store.getState().play();
    expect(asked).toEqual([]);
    expect(statusOf(session)).toBe('playing');
  });
});
