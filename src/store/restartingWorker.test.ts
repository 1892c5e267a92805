import { expose } from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { isWorkerRestarted, restartingWorker, type LivenessTimers, type RestartReason } from './restartingWorker';

/** What the fake worker serves: a frame subscription, the liveness answer, and calls that may never answer. */
interface FakeApi {
  subscribe(callback: (frame: number) => void): void;
  ping(): true;
  echo(value: number): number;
  never(): Promise<number>;
}

/**
 * A worker made of a message channel: the page holds one port (as a `Worker`), the "worker"
 * exposes its API on the other. `close()` is what `self.close()` does inside a real worker:
 * it stops answering without any event on the page's side.
 */
function fakeWorker(index: number) {
  const { port1, port2 } = new MessageChannel();
  const errors = new EventTarget();
  let frameCallback: ((frame: number) => void) | null = null;
  /** A worker busy in a long call: the liveness check's ping waits behind it. */
  let busy = false;
  const api: FakeApi = {
    subscribe: (callback) => {
      frameCallback = callback;
    },
    ping: () => (busy ? (new Promise<true>(() => undefined) as unknown as true) : true),
    echo: (value) => value + 1000 * index,
    never: () => new Promise<number>(() => undefined),
  };
  expose(api, port2);
  const worker = {
    postMessage: (message: unknown, transfer?: Transferable[]) => port1.postMessage(message, transfer ?? []),
    addEventListener: (type: string, listener: EventListener) => (type === 'message' ? port1.addEventListener('message', listener) : errors.addEventListener(type, listener)),
    removeEventListener: (type: string, listener: EventListener) => (type === 'message' ? port1.removeEventListener('message', listener) : errors.removeEventListener(type, listener)),
    start: () => port1.start(),
    terminate: () => {
      port1.close();
      port2.close();
    },
  };
  return {
    worker: worker as unknown as Worker,
    close: () => port2.close(),
    crash: () => errors.dispatchEvent(Object.assign(new Event('error', { cancelable: true }))),
    frame: (value: number) => frameCallback?.(value),
    setBusy: (value: boolean) => {
      busy = value;
    },
  };
}

/** A manual clock whose interval the test fires. */
function manualTimers() {
  let time = 0;
  let tick: (() => void) | null = null;
  const timers: LivenessTimers = {
    now: () => time,
    every: (fn) => {
      tick = fn;
      return () => {
        tick = null;
      };
    },
  };
  return {
    timers,
    /** Moves the clock by `ms` in heartbeat steps, letting messages flow between checks. */
    async pass(ms: number, stepMs: number) {
      for (let t = 0; t < ms; t += stepMs) {
        time += stepMs;
        tick?.();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
  };
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function setup() {
  const fakes: ReturnType<typeof fakeWorker>[] = [];
  const clock = manualTimers();
  const client = restartingWorker<FakeApi, number>(
    () => {
      const fake = fakeWorker(fakes.length);
      fakes.push(fake);
      return fake.worker;
    },
    { liveness: { heartbeatMs: 100, timeoutMs: 500, busyTimeoutMs: 1500 }, timers: clock.timers },
  );
  cleanups.push(client.dispose);
  const restarts: RestartReason[] = [];
  client.onCrash((reason) => restarts.push(reason));
  return { fakes, clock, client, restarts };
}

describe('restartingWorker', () => {
  it('keeps a worker that answers the liveness check', async () => {
    const { fakes, clock, client, restarts } = setup();
    await clock.pass(2000, 100);
    expect(restarts).toEqual([]);
    expect(fakes).toHaveLength(1);
    expect(await client.remote().echo(1)).toBe(1);
  });

  it('restarts a worker that closed itself, renews the frame subscription and rejects waiting calls', async () => {
    const { fakes, clock, client, restarts } = setup();
    const frames: number[] = [];
    await client.subscribe((f) => frames.push(f));
    const waiting = client.remote().never();
    const outcome = waiting.then(
      () => 'answered',
      (error: unknown) => (isWorkerRestarted(error) ? 'restarted' : 'other'),
    );
    fakes[0]!.close();
    // A call is waiting: the worker may be computing its answer, and gets the longer bound.
    await clock.pass(1400, 100);
    expect(restarts).toEqual([]);
    await clock.pass(300, 100);
    expect(restarts).toEqual(['stopped answering']);
    expect(fakes).toHaveLength(2);
    expect(await outcome).toBe('restarted');
    // The new worker answers, and frames flow to the same callback again.
    expect(await client.remote().echo(1)).toBe(1001);
    fakes[1]!.frame(7);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(frames).toEqual([7]);
    await clock.pass(2000, 100);
    expect(restarts).toEqual(['stopped answering']);
  });

  it('keeps a worker busy in a long call while it sends frames, and restarts it once they stop', async () => {
    const { fakes, clock, client, restarts } = setup();
    const frames: number[] = [];
    await client.subscribe((f) => frames.push(f));
    void client.remote().never().catch(() => undefined);
    fakes[0]!.setBusy(true);
    // Three times the busy bound, a progress frame every 200 ms (a long call that reports as it goes).
    for (let i = 0; i < 22; i++) {
      fakes[0]!.frame(i);
      await clock.pass(200, 100);
    }
    expect(frames).toHaveLength(22);
    expect(restarts).toEqual([]);
    // Silent from now on: the busy bound applies again.
    await clock.pass(1700, 100);
    expect(restarts).toEqual(['stopped answering']);
  });

  it('restarts a crashed worker at once', async () => {
    const { fakes, client, restarts } = setup();
    const waiting = client.remote().never().catch((error: unknown) => isWorkerRestarted(error));
    fakes[0]!.crash();
    expect(restarts).toEqual(['crashed']);
    expect(await waiting).toBe(true);
    expect(await client.remote().echo(2)).toBe(1002);
  });

  it('restarts a silent worker with no call waiting after the short bound', async () => {
    const { fakes, clock, restarts } = setup();
    fakes[0]!.close();
    await clock.pass(400, 100);
    expect(restarts).toEqual([]);
    await clock.pass(300, 100);
    expect(restarts).toEqual(['stopped answering']);
  });

  it('does not judge a worker by a check the page ran late (a hidden tab)', async () => {
    const { fakes, clock, restarts } = setup();
    fakes[0]!.close();
    // One check every 300 ms (timers throttled): each is late, so none of them restarts.
    await clock.pass(3000, 300);
    expect(restarts).toEqual([]);
    // Back at the normal pace, the silence is noticed.
    await clock.pass(700, 100);
    expect(restarts).toEqual(['stopped answering']);
  });
});
