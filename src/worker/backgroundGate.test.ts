import { describe, expect, it } from 'vitest';
import { BackgroundGate } from './backgroundGate';
import { manualHost } from './testing/manualHost';

/** A gate on a manual clock, and the order the work it let through ran in. */
function gate(waitMs = 1000) {
  const h = manualHost<never>();
  const ran: string[] = [];
  const g = new BackgroundGate(h.host.schedule, waitMs);
  return { g, ran, work: (name: string) => () => void ran.push(name), advance: h.advanceTime };
}

describe('BackgroundGate (first frame first)', () => {
  it('lets work through in a task of its own before any frame and once the run has moved', () => {
    const { g, ran, work, advance } = gate();
    g.defer(work('a'));
    expect(ran).toEqual([]);
    advance(0);
    g.framed(0);
    g.framed(250);
    g.defer(work('b'));
    advance(0);
    expect(ran).toEqual(['a', 'b']);
    expect(g.waiting).toBe(false);
  });

  it('holds work asked for during a load whose frame at 0 goes out in the same call', () => {
    const { g, ran, work, advance } = gate();
    g.framed(300);
    // A load: its lanes ask for a search, then its frame at 0 goes out.
    g.defer(work('search'));
    g.framed(0);
    advance(0);
    expect(ran).toEqual([]);
    g.framed(16);
    advance(0);
    expect(ran).toEqual(['search']);
  });

  it('holds work while the run stands at 0 and starts it, in order, after the first frame past 0', () => {
    const { g, ran, work, advance } = gate();
    g.framed(0);
    g.defer(work('learners'));
    g.defer(work('search'));
    advance(0);
    advance(500);
    expect(ran).toEqual([]);
    expect(g.waiting).toBe(true);
    g.framed(16);
    // Not inside the frame's call: in tasks of their own.
    expect(ran).toEqual([]);
    advance(0);
    expect(ran).toEqual(['learners', 'search']);
  });

  it('opens after waitMs for a run left paused at 0, and a later closing is not opened by an earlier timeout', () => {
    const { g, ran, work, advance } = gate(1000);
    g.framed(0);
    g.defer(work('a'));
    advance(999);
    expect(ran).toEqual([]);
    advance(1);
    expect(ran).toEqual(['a']);
    // Moved, then back at 0 (a new load) 600 ms before the first closing's timeout would have fired.
    const { g: g2, ran: ran2, work: work2, advance: advance2 } = gate(1000);
    g2.framed(0);
    advance2(400);
    g2.framed(10);
    g2.framed(0);
    g2.defer(work2('b'));
    advance2(600);
    expect(ran2).toEqual([]);
    advance2(400);
    expect(ran2).toEqual(['b']);
  });

  it('does not close again on frames at 0 while closed (the wait counts from the first)', () => {
    const { g, ran, work, advance } = gate(1000);
    g.framed(0);
    g.defer(work('a'));
    advance(600);
    g.framed(0);
    advance(400);
    expect(ran).toEqual(['a']);
  });
});
