/**
 * The one set of keys no scenario, database or `--set` path may hold, at every door (file,
 * link, `--set`, worker message, database import). They mean something to JavaScript objects
 * (`__proto__` reaches the prototype on assignment; `constructor` and `prototype` on a later
 * naive merge); a scenario never needs them. JSON.parse makes them own properties, so nothing
 * is polluted on parse; they are refused so that no later spread or assignment can give them
 * their special meaning, and so that every door gives the same answer.
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Whether a key is one of `FORBIDDEN_KEYS`. */
export function isForbiddenKey(key: string): boolean {
  return FORBIDDEN_KEYS.has(key);
}

interface Trail {
  readonly key: string | number;
  readonly up: Trail | null;
}

/**
 * The first forbidden key anywhere in a value (own enumerable keys, depth first), and the
 * path of the object holding it. Iterative: JSON.parse accepts nesting deep enough to
 * overflow a recursive walk. Never throws on plain data; a throwing getter propagates.
 */
export function findForbiddenKey(root: unknown): { readonly path: (string | number)[]; readonly key: string } | undefined {
  const pending: { value: unknown; trail: Trail | null }[] = [{ value: root, trail: null }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const { value, trail } = item;
    if (value === null || typeof value !== 'object') continue;
    const isArray = Array.isArray(value);
    for (const key of Object.keys(value)) {
      if (FORBIDDEN_KEYS.has(key)) return { path: pathOf(trail), key };
      pending.push({ value: (value as Record<string, unknown>)[key], trail: { key: isArray ? Number(key) : key, up: trail } });
    }
  }
  return undefined;
}

function pathOf(trail: Trail | null): (string | number)[] {
  const path: (string | number)[] = [];
  for (let t = trail; t !== null; t = t.up) path.unshift(t.key);
  return path;
}
