import { describe, expect, it } from 'vitest';
import type { AgentFile } from '../agents/learner';
import { AGENT_DB, AgentStorageError, agentKey, createAgentStorage } from './agentStorage';

/**
 * An in-memory stand-in for the part of IndexedDB the storage uses: open with an upgrade,
 * one object store with a key path, readonly and readwrite transactions that complete
 * after their requests, asynchronous callbacks. `failWrites` makes every put fail like a
 * full disk (the transaction aborts with an error).
 */
function fakeIndexedDb(options: { failWrites?: boolean } = {}): { factory: IDBFactory; opens: number } {
  const stores = new Map<string, Map<string, unknown>>();
  const state = { opens: 0 };
  const later = (f: () => void) => setTimeout(f, 0);
  type Req = { result: unknown; error: DOMException | null; onsuccess: (() => void) | null; onerror: (() => void) | null };
  const makeRequest = (): Req => ({ result: undefined, error: null, onsuccess: null, onerror: null });

  const makeTransaction = (name: string) => {
    let pending = 0;
    const tx = {
      error: null as DOMException | null,
      oncomplete: null as (() => void) | null,
      onerror: null as (() => void) | null,
      onabort: null as (() => void) | null,
      abort: () => undefined,
      objectStore: () => store,
    };
    const data = stores.get(name)!;
    const op = (run: () => unknown, fail = false) => {
      const req = makeRequest();
      pending++;
      later(() => {
        pending--;
        if (fail) {
          req.error = new DOMException('The disk is full', 'QuotaExceededError');
          tx.error = req.error;
          req.onerror?.();
          tx.onabort?.();
          return;
        }
        req.result = run();
        req.onsuccess?.();
        if (pending === 0) later(() => tx.oncomplete?.());
      });
      return req;
    };
    const store = {
      put: (value: { key: string }) => op(() => data.set(value.key, structuredClone(value)), options.failWrites === true),
      get: (key: string) => op(() => structuredClone(data.get(key))),
      getAll: () => op(() => [...data.values()].map((v) => structuredClone(v))),
      delete: (key: string) => op(() => data.delete(key)),
    };
    return tx;
  };

  const database = {
    objectStoreNames: { contains: (name: string) => stores.has(name) },
    createObjectStore: (name: string) => stores.set(name, new Map()),
    transaction: (name: string) => makeTransaction(name),
    onversionchange: null,
    close: () => undefined,
  };
  const factory = {
    open: (name: string, version: number) => {
      expect(name).toBe(AGENT_DB.name);
      expect(version).toBe(AGENT_DB.version);
      state.opens++;
      const req = { ...makeRequest(), onupgradeneeded: null as (() => void) | null, onblocked: null };
      later(() => {
        req.result = database;
        if (!stores.has(AGENT_DB.store)) req.onupgradeneeded?.();
        req.onsuccess?.();
      });
      return req;
    },
  };
  return {
    factory: factory as unknown as IDBFactory,
    get opens() {
      return state.opens;
    },
  };
}

const agent = (updates: number): AgentFile => ({
  format: 'interference-lab-agent',
  version: 1,
  kind: 'bcedge',
  stateSize: 4,
  actionCount: 64,
  hyper: {},
  networks: {},
  scalars: { updates },
});

describe('createAgentStorage', () => {
  it('saves, lists by scheduler (most recent first), loads and removes', async () => {
    const idb = fakeIndexedDb();
    const storage = createAgentStorage(idb.factory);
    await storage.save({ scheduler: 'bcedge', title: 'A', label: 'BCEdge (SAC)', agent: agent(1) }, new Date('2025-01-01T10:00:00Z'));
    const saved = await storage.save({ scheduler: 'bcedge', title: 'B', label: 'BCEdge (SAC)', agent: agent(2) }, new Date('2025-01-02T10:00:00Z'));
    await storage.save({ scheduler: 'tac', title: 'A', label: 'TAC', agent: agent(3) }, new Date('2025-01-03T10:00:00Z'));
    expect(saved).toEqual({ key: agentKey('bcedge', 'B'), scheduler: 'bcedge', title: 'B', label: 'BCEdge (SAC)', savedAt: '2025-01-02T10:00:00.000Z' });

    const list = await storage.list('bcedge');
    expect(list.map((e) => e.title)).toEqual(['B', 'A']);
    expect(list[0]).not.toHaveProperty('agent');
    expect((await storage.load(agentKey('bcedge', 'A')))?.agent.scalars).toEqual({ updates: 1 });
    expect(await storage.load(agentKey('ppo', 'A'))).toBeNull();

    await storage.remove(agentKey('bcedge', 'B'));
    expect((await storage.list('bcedge')).map((e) => e.title)).toEqual(['A']);
    expect(idb.opens).toBe(1); // opened once, kept open
  });

  it('replaces the agent of the same scheduler and scenario title, with the new date', async () => {
    const storage = createAgentStorage(fakeIndexedDb().factory);
    await storage.save({ scheduler: 'bcedge', title: 'A', label: 'x', agent: agent(1) }, new Date('2025-01-01T00:00:00Z'));
    await storage.save({ scheduler: 'bcedge', title: 'A', label: 'x', agent: agent(9) }, new Date('2025-02-01T00:00:00Z'));
    const list = await storage.list('bcedge');
    expect(list).toHaveLength(1);
    expect(list[0]!.savedAt).toBe('2025-02-01T00:00:00.000Z');
    expect((await storage.load(list[0]!.key))?.agent.scalars).toEqual({ updates: 9 });
  });

  it('rejects with a clear AgentStorageError when there is no IndexedDB', async () => {
    const storage = createAgentStorage(undefined);
    await expect(storage.list('bcedge')).rejects.toBeInstanceOf(AgentStorageError);
    await expect(storage.save({ scheduler: 'bcedge', title: 'A', label: 'x', agent: agent(1) })).rejects.toThrow(/IndexedDB.*Download agent/);
  });

  it('rejects when opening throws (blocked site data), and tries again next time', async () => {
    let calls = 0;
    const blocked = {
      open: () => {
        calls++;
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    } as unknown as IDBFactory;
    const storage = createAgentStorage(blocked);
    await expect(storage.list('bcedge')).rejects.toThrow(/SecurityError/);
    await expect(storage.list('bcedge')).rejects.toThrow(AgentStorageError);
    expect(calls).toBe(2);
  });

  it('rejects a failed write with the browser’s reason', async () => {
    const storage = createAgentStorage(fakeIndexedDb({ failWrites: true }).factory);
    await expect(storage.save({ scheduler: 'bcedge', title: 'A', label: 'x', agent: agent(1) })).rejects.toThrow(/save the bcedge agent: QuotaExceededError/);
  });
});

describe('agentKey', () => {
  it('separates scheduler and title so that no two pairs share a key', () => {
    expect(agentKey('bcedge', 'a')).not.toBe(agentKey('bcedg', 'ea'));
    expect(agentKey('tac', 'Six models')).toContain('Six models');
  });
});
