/**
 * What this machine gives two threads at once, whatever the code (part of the sweep bench,
 * ARCHITECTURE §6): the same fixed work run on one thread alone, then on every core at once,
 * one copy per thread. The ratio cores × (time alone) / (time together) is the most any pool of
 * that many threads can gain on work of that kind here; the sweep pool's speed-up is read
 * against it. Two kinds of work: a compute loop that touches no memory (the cores themselves:
 * a VM's vCPUs may share a physical core or be throttled together) and a loop streaming a
 * 64 MiB array (the memory bandwidth the threads share).
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism, loadavg } from 'node:os';
import type { BenchRow } from './row';

/** The work of one thread, as source for an eval'd worker: posts its wall time, ms. */
const KERNELS = {
  compute: `
    const t0 = performance.now();
    let x = 0x9e3779b9 | 0, acc = 0;
    for (let i = 0; i < 300_000_000; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; acc = (acc + x) | 0; }
    require('node:worker_threads').parentPort.postMessage({ ms: performance.now() - t0, acc });`,
  memory: `
    const a = new Float64Array(8 * 1024 * 1024).fill(1);
    const t0 = performance.now();
    let sum = 0;
    for (let r = 0; r < 40; r++) for (let i = 0; i < a.length; i++) sum += a[i];
    require('node:worker_threads').parentPort.postMessage({ ms: performance.now() - t0, acc: sum });`,
} as const;

function runKernel(kind: keyof typeof KERNELS): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(KERNELS[kind], { eval: true });
    worker.once('message', (m: { ms: number }) => {
      resolve(m.ms);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

/** The median of three: one thread alone, then `threads` at once (their mean), per kind of work. */
async function ceiling(kind: keyof typeof KERNELS, threads: number): Promise<{ aloneMs: number; togetherMs: number }> {
  const alone: number[] = [];
  const together: number[] = [];
  for (let r = 0; r < 3; r++) {
    alone.push(await runKernel(kind));
    const times = await Promise.all(Array.from({ length: threads }, () => runKernel(kind)));
    together.push(times.reduce((s, t) => s + t, 0) / threads);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
  return { aloneMs: median(alone), togetherMs: median(together) };
}

/** Appends a row per kind of work; returns the ceilings (speed-up on every core at once). */
export async function benchParallelCeiling(rows: BenchRow[]): Promise<Record<keyof typeof KERNELS, number>> {
  const threads = availableParallelism();
  const out = { compute: 0, memory: 0 };
  for (const kind of ['compute', 'memory'] as const) {
    const { aloneMs, togetherMs } = await ceiling(kind, threads);
    const speedUp = (threads * aloneMs) / togetherMs;
    out[kind] = speedUp;
    rows.push({
      name: `this machine's ceiling for ${threads} threads at once, ${kind === 'compute' ? 'a compute loop (no memory)' : 'a loop streaming 64 MiB'}`,
      value: speedUp,
      unit: '× one thread',
      baseline: threads,
      ratio: speedUp / threads,
      note: `the same work takes ${Math.round(aloneMs)} ms on one thread alone and ${Math.round(togetherMs)} ms each when ${threads} run at once (median of 3); no pool of ${threads} threads can beat ${speedUp.toFixed(2)}× on such work here; load average ${loadavg()[0]!.toFixed(1)}`,
    });
  }
  return out;
}
