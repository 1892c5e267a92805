/**
 * A session host for tests: a manual clock, a task queue run by `advanceTime`, and the
 * frames the session emitted. Sessions own no timers, so this drives them exactly.
 */
export function manualHost<F>() {
  let time = 0;
  const tasks: { at: number; fn: () => void }[] = [];
  const frames: F[] = [];
  return {
    frames,
    advanceTime(ms: number): void {
      time += ms;
      for (;;) {
        tasks.sort((a, b) => a.at - b.at);
        const next = tasks[0];
        if (next === undefined || next.at > time) break;
        tasks.shift();
        next.fn();
      }
    },
    host: {
      now: () => time,
      schedule: (fn: () => void, delayMs: number) => void tasks.push({ at: time + delayMs, fn }),
      emit: (frame: F) => void frames.push(frame),
    },
  };
}
