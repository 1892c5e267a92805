import { describe, expect, it } from 'vitest';
import { startHogs } from '../measure/hogs';
import type { HogReport } from '../measure/hogLoop';
import { spawnNodeHog } from './hogThreads';

const schedule = (fn: () => void, ms: number) => void setTimeout(fn, ms);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('hogs as worker threads', () => {
  it('start, report work and stop on cancel', async () => {
    const hogs = await startHogs({ cpu: 1, memBW: 1 }, spawnNodeHog, { bufferMiB: 64, reportEveryMs: 50, schedule });
    expect(hogs.reportCounts.every((c) => c >= 1)).toBe(true);
    hogs.resetRates();
    // Five reports more from each (waited for, not timed: the machine may be loaded, and a
    // thread that shares its core with others does less in a given wall time).
    const from = [...hogs.reportCounts];
    for (let waited = 0; waited < 20_000 && !hogs.reportCounts.every((c, i) => c >= from[i]! + 5); waited += 50) await sleep(50);
    const rates = hogs.rates();
    // An idle core doing multiply–adds manages well over 10^8 FLOP/s and streams well over
    // 10^8 B/s; the bound is ten times lower so that a core shared five ways still passes.
    expect(rates.cpuOpsPerS).toBeGreaterThan(1e7);
    expect(rates.memBytesPerS).toBeGreaterThan(1e7);
    await hogs.stop();
    const after = [...hogs.reportCounts];
    await sleep(200);
    expect(hogs.reportCounts).toEqual(after);
  }, 30_000);

  it('armed hogs are ready (one report of no work) and idle until their message, then work', async () => {
    const hogs = await startHogs({ cpu: 1, memBW: 1 }, spawnNodeHog, { bufferMiB: 64, reportEveryMs: 50, schedule, armed: true });
    expect([...hogs.reportCounts]).toEqual([1, 1]);
    await sleep(250);
    // Idle: no loop runs, no report comes.
    expect([...hogs.reportCounts]).toEqual([1, 1]);
    expect(hogs.rates().cpuOpsPerS).toBe(0);
    hogs.go();
    // Working now: reports come (waited for, not timed: the machine may be loaded).
    for (let waited = 0; waited < 20_000 && !hogs.reportCounts.every((c) => c >= 3); waited += 50) await sleep(50);
    expect(hogs.reportCounts.every((c) => c >= 3)).toBe(true);
    // Work was done (its rate on a loaded machine is the other test's matter).
    expect(hogs.rates().cpuOpsPerS).toBeGreaterThan(0);
    expect(hogs.rates().memBytesPerS).toBeGreaterThan(0);
    await hogs.stop();
  }, 30_000);

  it('a hog thread that dies fails the start and stops the others', async () => {
    const terminated: number[] = [];
    let n = 0;
    const spawn: typeof spawnNodeHog = (config, onReport, onError) => {
      const id = n++;
      if (id === 1) setTimeout(() => onError(new Error('out of memory')), 10);
      else setTimeout(() => onReport({ kind: config.kind, work: 1, elapsedMs: 1, checksum: 0 } satisfies HogReport), 10);
      return { terminate: () => void terminated.push(id) };
    };
    await expect(startHogs({ cpu: 2, memBW: 0 }, spawn, { bufferMiB: 1, schedule })).rejects.toThrow('out of memory');
    expect(terminated.sort()).toEqual([0, 1]);
  });
});
