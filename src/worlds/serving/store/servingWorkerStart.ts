/**
 * The serving worker, started as early as the page knows it will be needed (ARCHITECTURE
 * §7a′): `main.tsx` starts it when the address bar holds a serving link, before the serving
 * lab's module has loaded, so that its start (fetching, compiling and running its script:
 * about a third of a second here) overlaps the lab's own loading and first render. The
 * client (`servingClient.ts`) takes that worker for its first incarnation; a restart starts
 * a new one. A small module: the page's entry carries it, not the serving lab.
 */
let early: Worker | null = null;

/** Starts the serving worker now, unless one started early waits already. */
export function startServingWorkerEarly(): void {
  early ??= newServingWorker();
}

/** The worker started early (once), else a new one. */
export function servingWorker(): Worker {
  const worker = early ?? newServingWorker();
  early = null;
  return worker;
}

function newServingWorker(): Worker {
  return new Worker(new URL('../worker/servingWorker.ts', import.meta.url), { type: 'module', name: 'serving' });
}
