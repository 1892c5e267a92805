/**
 * A shipped agent (`public/agents/<key>.json`) fetched from the page's own origin, once per
 * `cache` (a worker's): every ask of a key while its fetch is under way or done gets the same
 * promise; a failed fetch is forgotten, so that the next ask tries again.
 */
export function fetchShippedAgent(cache: Map<string, Promise<unknown>>, key: string, baseUrl: string): Promise<unknown> {
  let agent = cache.get(key);
  if (agent === undefined) {
    agent = fetch(new URL(`${key}.json`, baseUrl)).then(async (response) => {
      if (!response.ok) throw new Error(`agents/${key}.json: ${response.status} ${response.statusText}`);
      return (await response.json()) as unknown;
    });
    agent.catch(() => cache.delete(key));
    cache.set(key, agent);
  }
  return agent;
}
