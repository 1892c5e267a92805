/**
 * A session host for tests: a manual clock, a task queue run by `advanceTime`, and the
 * frames the session emitted. Sessions own no timers, so this drives them exactly.
 * `clockStepMs` moves the clock on at every read, as work takes time: a loop that computes
 * for a wall-clock budget then ends after budget / clockStepMs reads (0: the clock stands
 * still while a task runs, and such a loop runs until its work is done).
 */
export function manualHost<F>(clockStepMs = 0) {
  let time = 0;
  const tasks: { at: number; fn: () => void }[] = [];
  const frames: F[] = [];
  return {
    frames,
    /** Moves the clock on by `ms` and runs the tasks due by then (those they schedule past it wait for the next call). */
    advanceTime(ms: number): void {
      time += ms;
      const until = time;
      for (;;) {
        tasks.sort((a, b) => a.at - b.at);
        const next = tasks[0];
        if (next === undefined || next.at > until) break;
        tasks.shift();
        next.fn();
      }
    },
    host: {
      now: () => {
        const now = time;
        time += clockStepMs;
        return now;
      },
      schedule: (fn: () => void, delayMs: number) => void tasks.push({ at: time + delayMs, fn }),
      emit: (frame: F) => void frames.push(frame),
    },
  };
}
