import { afterEach, describe, expect, it, vi } from 'vitest';
import { subscribeWithSelector } from 'zustand/middleware';
import { createStore } from 'zustand/vanilla';
import { defaultPipelineScenario } from '../worlds/pipeline/defaultPreset';
import type { PipelineScenario } from '../worlds/pipeline/schema';
import type { PipelineLabStore } from '../worlds/pipeline/store/pipelineStore';
import { linkCodec, linkFor, startLinkSync } from './linkSync';

/** Lets the link codec's promises (it loads lazily, ARCHITECTURE §7a′) settle. */
async function settle(): Promise<void> {
  await linkCodec();
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

/** A window with an address bar, replaceState and hashchange listeners, no more. */
function fakeWindow() {
  let hash = '';
  const listeners: ((event: HashChangeEvent) => void)[] = [];
  const win = {
    location: {
      get hash() {
        return hash === '' ? '' : `#${hash}`;
      },
    },
    history: { state: null, replaceState: (_s: unknown, _t: string, url: string) => void (hash = url.replace(/^#/, '')) },
    addEventListener: (_type: string, listener: (event: HashChangeEvent) => void) => void listeners.push(listener),
    removeEventListener: () => undefined,
  };
  return {
    win: win as unknown as Window,
    /** The person navigates: the address changes now, its hashchange event comes later. */
    navigate: (to: string) => {
      hash = to;
      return () => listeners.forEach((l) => l({ newURL: `http://127.0.0.1:4173/#${to}` } as HashChangeEvent));
    },
    hash: () => hash,
  };
}

afterEach(() => vi.useRealTimers());

describe('the address bar and the scenario in step', () => {
  it('a hash navigated to is opened even when a debounced write replaced the address before its hashchange event', async () => {
    vi.useFakeTimers();
    const store = createStore(subscribeWithSelector(() => ({ scenario: null as PipelineScenario | null }))) as unknown as PipelineLabStore;
    const { win, navigate, hash } = fakeWindow();
    const opened: string[] = [];
    const stop = startLinkSync(store, win, linkFor, async (h) => (opened.push(h), true));
    const scenario = defaultPipelineScenario();
    (store as unknown as { setState: (s: object) => void }).setState({ scenario });
    // The pasted link changes the address; the edit's debounced write runs before the hashchange event.
    const fire = navigate('pasted-link');
    vi.advanceTimersByTime(300);
    await settle();
    expect(hash()).toBe(await linkFor(scenario));
    fire();
    expect(opened).toEqual(['pasted-link']);
    stop();
  });

  it("writes the scenario's link after the debounce, and does not reopen its own write", async () => {
    vi.useFakeTimers();
    const store = createStore(subscribeWithSelector(() => ({ scenario: null as PipelineScenario | null }))) as unknown as PipelineLabStore;
    const { win, navigate, hash } = fakeWindow();
    const opened: string[] = [];
    const stop = startLinkSync(store, win, linkFor, async (h) => (opened.push(h), true));
    const scenario = defaultPipelineScenario();
    (store as unknown as { setState: (s: object) => void }).setState({ scenario });
    vi.advanceTimersByTime(249);
    await settle();
    expect(hash()).toBe('');
    vi.advanceTimersByTime(1);
    await settle();
    const link = await linkFor(scenario);
    expect(hash()).toBe(link);
    navigate(link!)();
    expect(opened).toEqual([]);
    stop();
  });
});
