import type { AgentFile } from '../agents/learner';

/**
 * Agents saved in this browser (IndexedDB): one per scheduler and scenario title, so saving
 * again from the same scenario replaces the older copy. Nothing leaves the browser.
 */

/** Database and object store of the saved agents. */
export const AGENT_DB = { name: 'interference-lab', version: 1, store: 'agents' } as const;

/** A saved agent as listed (without its weights). */
export interface SavedAgentInfo {
  /** `agentKey(scheduler, title)`. */
  readonly key: string;
  /** Registry id of the scheduler it belongs to ('bcedge', 'tac', 'ppo', 'ddqn'). */
  readonly scheduler: string;
  /** Title of the scenario it was trained in. */
  readonly title: string;
  /** The lane's label when it was saved. */
  readonly label: string;
  /** When it was saved, ISO 8601. */
  readonly savedAt: string;
}

/** A saved agent with its file. */
export interface SavedAgent extends SavedAgentInfo {
  readonly agent: AgentFile;
}

/** Why saving or loading in this browser failed, in words for the page's error banner. */
export class AgentStorageError extends Error {
  override readonly name = 'AgentStorageError';
}

/** The key of a saved agent: its scheduler and the scenario's title. */
export function agentKey(scheduler: string, title: string): string {
  return `${scheduler}\u241f${title}`;
}

/** What the page's storage of agents can do. */
export interface AgentStorage {
  /** Saves (or replaces) the agent of `scheduler` for scenario `title`. */
  save(entry: { readonly scheduler: string; readonly title: string; readonly label: string; readonly agent: AgentFile }, now?: Date): Promise<SavedAgentInfo>;
  /** The agents saved for `scheduler`, most recent first. */
  list(scheduler: string): Promise<SavedAgentInfo[]>;
  /** One saved agent (null when there is none under `key`). */
  load(key: string): Promise<SavedAgent | null>;
  remove(key: string): Promise<void>;
}

const UNAVAILABLE = 'this browser does not let the page use IndexedDB (a private window or blocked site data?); use "Download agent" to keep it as a file instead';

function describe(error: unknown): string {
  if (error instanceof DOMException || error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** Resolves a request's result; rejects with an AgentStorageError saying what was being done. */
function request<T>(req: IDBRequest<T>, doing: string): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(new AgentStorageError(`could not ${doing}: ${describe(req.error)}`));
  });
}

/** Waits for a transaction to commit (a put is only durable then). */
function committed(tx: IDBTransaction, doing: string): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(new AgentStorageError(`could not ${doing}: ${describe(tx.error)}`));
    tx.onabort = () => reject(new AgentStorageError(`could not ${doing}: ${tx.error === null ? 'the browser aborted it (storage full?)' : describe(tx.error)}`));
  });
}

function info(entry: SavedAgent): SavedAgentInfo {
  return { key: entry.key, scheduler: entry.scheduler, title: entry.title, label: entry.label, savedAt: entry.savedAt };
}

/** Whether a stored value looks like a saved agent (the database is the user's: check it). */
function isSavedAgent(value: unknown): value is SavedAgent {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['key'] === 'string' && typeof v['scheduler'] === 'string' && typeof v['title'] === 'string' && typeof v['savedAt'] === 'string' && typeof v['agent'] === 'object';
}

/** The page's IndexedDB, or undefined where there is none or reading it throws (sandboxed frames). */
function browserIndexedDb(): IDBFactory | undefined {
  try {
    return typeof indexedDB === 'undefined' ? undefined : indexedDB;
  } catch {
    return undefined;
  }
}

/**
 * The agents' storage over `factory` (the browser's `indexedDB`; a stand-in in tests). Every
 * method rejects with an AgentStorageError when IndexedDB is missing, blocked or fails — it
 * never throws synchronously. The database is opened on first use and kept open.
 */
export function createAgentStorage(factory: IDBFactory | undefined = browserIndexedDb()): AgentStorage {
  let db: Promise<IDBDatabase> | null = null;
  const open = (): Promise<IDBDatabase> => {
    if (db !== null) return db;
    db = new Promise<IDBDatabase>((resolve, reject) => {
      if (factory === undefined) {
        reject(new AgentStorageError(UNAVAILABLE));
        return;
      }
      let req: IDBOpenDBRequest;
      try {
        req = factory.open(AGENT_DB.name, AGENT_DB.version);
      } catch (error) {
        reject(new AgentStorageError(`${UNAVAILABLE} (${describe(error)})`));
        return;
      }
      req.onupgradeneeded = () => {
        const database = req.result;
        if (!database.objectStoreNames.contains(AGENT_DB.store)) database.createObjectStore(AGENT_DB.store, { keyPath: 'key' });
      };
      req.onsuccess = () => {
        const database = req.result;
        // Another tab upgrading the database: let it, and reopen next time.
        database.onversionchange = () => {
          database.close();
          db = null;
        };
        resolve(database);
      };
      req.onerror = () => reject(new AgentStorageError(`${UNAVAILABLE} (${describe(req.error)})`));
      req.onblocked = () => reject(new AgentStorageError('the saved agents are locked by another tab of the lab: close it and try again'));
    });
    // A failed open is retried next time.
    db.catch(() => (db = null));
    return db;
  };
  const transaction = async (mode: IDBTransactionMode): Promise<{ tx: IDBTransaction; store: IDBObjectStore }> => {
    const database = await open();
    try {
      const tx = database.transaction(AGENT_DB.store, mode);
      return { tx, store: tx.objectStore(AGENT_DB.store) };
    } catch (error) {
      throw new AgentStorageError(`could not use the saved agents: ${describe(error)}`);
    }
  };
  /** Runs one change and waits for it to be committed. */
  const write = async (doing: string, change: (store: IDBObjectStore) => void): Promise<void> => {
    const { tx, store } = await transaction('readwrite');
    const done = committed(tx, doing);
    try {
      change(store);
    } catch (error) {
      // e.g. DataCloneError: nothing was written; the abort's rejection is this error's.
      done.catch(() => undefined);
      try {
        tx.abort();
      } catch {
        // Already finished.
      }
      throw new AgentStorageError(`could not ${doing}: ${describe(error)}`);
    }
    await done;
  };
  const all = async (): Promise<SavedAgent[]> => {
    const { store } = await transaction('readonly');
    const values = await request<unknown[]>(store.getAll(), 'read the saved agents');
    return values.filter(isSavedAgent);
  };
  return {
    async save({ scheduler, title, label, agent }, now = new Date()) {
      const entry: SavedAgent = { key: agentKey(scheduler, title), scheduler, title, label, savedAt: now.toISOString(), agent };
      await write(`save the ${scheduler} agent`, (store) => store.put(entry));
      return info(entry);
    },
    async list(scheduler) {
      return (await all())
        .filter((e) => e.scheduler === scheduler)
        .map(info)
        .sort((a, b) => (a.savedAt < b.savedAt ? 1 : a.savedAt > b.savedAt ? -1 : 0));
    },
    async load(key) {
      const { store } = await transaction('readonly');
      const value = await request<unknown>(store.get(key), 'read the saved agent');
      return isSavedAgent(value) ? value : null;
    },
    async remove(key) {
      await write('delete the saved agent', (store) => store.delete(key));
    },
  };
}
