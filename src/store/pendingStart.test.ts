import { describe, expect, it } from 'vitest';
import { PendingStart } from './pendingStart';

function tracked() {
  const shown: boolean[] = [];
  return { shown, pending: new PendingStart((starting) => shown.push(starting)) };
}

describe('a Play asked for and not yet under way', () => {
  it('shows from the request until the first frame after the worker was told', () => {
    const { shown, pending } = tracked();
    const id = pending.begin();
    expect(pending.live(id)).toBe(true);
    pending.framed(); // a frame before the worker was told: the run is not under way yet
    expect(shown).toEqual([true]);
    pending.toldWorker(id, false);
    pending.settled(id);
    expect(shown).toEqual([true]);
    pending.framed();
    expect(shown).toEqual([true, false]);
    expect(pending.live(id)).toBe(false);
  });

  it('ends when the guard declines, or at once when the run had already finished', () => {
    const { shown, pending } = tracked();
    const declined = pending.begin();
    pending.settled(declined);
    expect(pending.live(declined)).toBe(false);
    const finished = pending.begin();
    pending.toldWorker(finished, true);
    pending.settled(finished);
    expect(pending.live(finished)).toBe(false);
    expect(shown).toEqual([true, false, true, false]);
  });

  it('a Pause cancels it, and a later request replaces an earlier one', () => {
    const { shown, pending } = tracked();
    const first = pending.begin();
    pending.cancel();
    expect(pending.live(first)).toBe(false);
    pending.toldWorker(first, false); // too late: ignored
    pending.framed();
    const second = pending.begin();
    const third = pending.begin();
    expect(pending.live(second)).toBe(false);
    pending.settled(second); // the replaced one ending does not end the third
    expect(pending.live(third)).toBe(true);
    expect(shown).toEqual([true, false, true, true]);
  });
});
