/**
 * Hogs as Node worker threads (ARCHITECTURE §2), for `measure` on the command line and
 * the bench. The thread runs `runHog` from its source text (worker threads cannot load
 * TypeScript modules under tsx or Vitest), so runHog is kept self-contained.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { runHog, type HogConfig, type HogReport } from '../measure/hogLoop';
import type { SpawnHog } from '../measure/hogs';

/** The thread's program: `runHog` with the worker's data, posting to the parent. */
const SOURCE = `
// A transpiler that keeps function names may wrap inner functions in __name(…).
var __name = (target) => target;
const { parentPort, workerData } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
const runHog = ${runHog.toString()};
runHog(workerData, (report) => parentPort.postMessage(report), () => performance.now(), (go) => parentPort.once('message', go));
`;

/** Starts a hog in a worker thread; terminating the thread stops it. */
export const spawnNodeHog: SpawnHog = (config: HogConfig, onReport, onError) => {
  const worker = new Worker(SOURCE, { eval: true, workerData: config });
  worker.on('message', (report: HogReport) => onReport(report));
  worker.on('error', (error: unknown) => onError(error instanceof Error ? error : new Error(String(error))));
  // Hogs must never keep the process alive after a measurement.
  worker.unref();
  return { terminate: () => worker.terminate(), start: () => worker.postMessage('go') };
};

/**
 * The default memBW buffer: four times the last-level cache Linux reports (several times
 * larger, ARCHITECTURE §2), at least 256 MiB, at most 1024 MiB (a VM may report its host's whole
 * L3: this machine's lscpu says 300 MiB), 512 MiB where the cache size is unknown.
 */
export function defaultHogBufferMiB(): number {
  try {
    const text = readFileSync('/sys/devices/system/cpu/cpu0/cache/index3/size', 'utf8').trim();
    const match = /^(\d+)([KMG])?$/.exec(text);
    if (match) {
      const scale = { K: 1 / 1024, M: 1, G: 1024 }[(match[2] ?? 'K') as 'K' | 'M' | 'G'];
      return Math.min(1024, Math.max(256, Math.round(4 * Number(match[1]) * scale)));
    }
  } catch {
    // Not Linux, or no L3 listed.
  }
  return 512;
}

/** Logical cores Node may use. */
export function nodeCores(): number {
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
}

/** "Node v20.20.2 (linux x64, Intel(R) Xeon(R) Processor)". */
export function nodeRuntime(): string {
  return `Node ${process.version} (${process.platform} ${process.arch}, ${os.cpus()[0]?.model ?? 'unknown CPU'})`;
}
