/**
 * The body of one hog (ARCHITECTURE §2), as iBench's CPU and memBW benchmarks stress a
 * core (ODIN §4.1): an endless loop that reports its own work rate. It runs in a Web
 * Worker (src/worlds/pipeline/worker/hogWorker.ts) or a Node worker thread (src/worlds/pipeline/cli/hogThreads.ts) and is
 * stopped by terminating that worker: a busy loop never reads messages.
 *
 * Self-contained on purpose: Node starts it from its source text (`runHog.toString()`),
 * so it may use nothing outside its own body, not even a module constant.
 */

/** What a hog is told when it starts. */
export interface HogConfig {
  readonly kind: 'cpu' | 'memBW';
  /** memBW: the buffer it streams over, MiB (several times the last-level cache). */
  readonly bufferMiB: number;
  /** How often it reports, ms. */
  readonly reportEveryMs: number;
  /**
   * Armed: the hog gets ready (a memBW hog allocates and touches its whole buffer), posts one
   * report of no work, and waits for a message before it loops (`whenGo`); a real run spawns
   * its hogs before it starts so an interference event costs a message, not a start.
   */
  readonly armed?: boolean;
}

/** One report: work done since the previous one. */
export interface HogReport {
  readonly kind: 'cpu' | 'memBW';
  /** cpu: floating-point operations; memBW: bytes read plus bytes written. */
  readonly work: number;
  readonly elapsedMs: number;
  /** A value that depends on every step, so no compiler may drop the loop. */
  readonly checksum: number;
}

/**
 * Runs forever. `cpu`: four independent multiply–add chains on local variables (they
 * stay in registers; 8 FLOPs per step, converging to 2, so no overflow or denormals).
 * `memBW`: STREAM's "scale" in place, a[i] = a[i]·0.5 + 1, over a Float64Array of
 * `bufferMiB`, 16 bytes moved per element (one read, one write), in chunks of 1 Mi
 * elements so reports stay timely.
 */
export function runHog(config: HogConfig, post: (report: HogReport) => void, now: () => number, whenGo?: (go: () => void) => void): void {
  const chunk = 1 << 20;
  let last = now();
  let work = 0;
  if (config.armed === true && whenGo !== undefined) {
    // Ready and waiting: the buffer is touched now (the cost of a start), the loop begins at the message.
    let checksum = 0;
    let buffer: Float64Array | null = null;
    if (config.kind === 'memBW') {
      buffer = new Float64Array(Math.max(chunk, Math.floor((config.bufferMiB * 1024 * 1024) / 8)));
      // Every page touched at once (a loop here, before it is optimised, takes seconds).
      buffer.fill(1);
      checksum = buffer[buffer.length - 1] as number;
    }
    post({ kind: config.kind, work: 0, elapsedMs: 0, checksum });
    whenGo(() => {
      const ready = buffer;
      buffer = null;
      runHog({ kind: config.kind, bufferMiB: config.bufferMiB, reportEveryMs: config.reportEveryMs, preallocated: ready } as HogConfig, post, now);
    });
    return;
  }
  if (config.kind === 'cpu') {
    let x0 = 1.1;
    let x1 = 1.2;
    let x2 = 1.3;
    let x3 = 1.4;
    for (;;) {
      for (let i = 0; i < chunk; i += 1) {
        x0 = x0 * 0.5 + 1;
        x1 = x1 * 0.5 + 1;
        x2 = x2 * 0.5 + 1;
        x3 = x3 * 0.5 + 1;
      }
      // Perturb so the chains never settle into a constant a compiler could fold.
      x0 += 1e-3;
      x3 -= 1e-3;
      work += chunk * 8;
      const t = now();
      if (t - last >= config.reportEveryMs) {
        post({ kind: 'cpu', work, elapsedMs: t - last, checksum: x0 + x1 + x2 + x3 });
        work = 0;
        last = t;
      }
    }
  }
  // An armed hog hands over the buffer it touched while waiting (never sent between threads).
  const given = (config as { preallocated?: Float64Array | null }).preallocated;
  const a = given ?? new Float64Array(Math.max(chunk, Math.floor((config.bufferMiB * 1024 * 1024) / 8)));
  const length = a.length;
  let at = 0;
  for (;;) {
    const end = Math.min(length, at + chunk);
    for (let i = at; i < end; i += 1) a[i] = (a[i] as number) * 0.5 + 1;
    work += (end - at) * 16;
    at = end === length ? 0 : end;
    const t = now();
    if (t - last >= config.reportEveryMs) {
      post({ kind: 'memBW', work, elapsedMs: t - last, checksum: a[at] as number });
      work = 0;
      last = t;
    }
  }
}
