import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { worldsFrom } from './kit/worlds';
import { isWorkerRestarted } from './store/restartingWorker';
import type { OpenedLink } from './scenario/linkPacking';
import { App } from './ui/App';
import { openPageLink } from './ui/shell/openPageLink';
import { PAGE_WORLDS, pageWorldOf } from './worlds/pages';
import './ui/app.css';

// The page's composition root (ARCHITECTURE §7b): the page's list of worlds goes to `App`; the
// headless list (`src/worlds/index.ts`, with the validator and the worlds' engines) is not on
// the first screen (§7a′): it loads with the first lazy part that asks it (`afterWorlds`).
worldsFrom(() => import('./worlds'));

const rootElement = document.getElementById('root');
if (rootElement === null) {
  throw new Error('index.html has no #root element to mount the lab into.');
}

// A call cut short because its worker was restarted is cancelled, not failed: the banner
// already says that the simulation was restarted (ARCHITECTURE §7: a call cut short by a restart counts as cancelled, not as an error).
window.addEventListener('unhandledrejection', (event) => {
  if (isWorkerRestarted(event.reason)) event.preventDefault();
});

/**
 * The link in the address bar is opened before the page renders (its packing is a small
 * chunk), so that the first screen is the link's own lab: a link of another world than the
 * first does not start the first world's lab and worker beside its own (App).
 */
async function openAddress(): Promise<OpenedLink | null> {
  const hash = window.location.hash.replace(/^#/, '');
  return hash === '' ? null : openPageLink(hash, PAGE_WORLDS);
}

void openAddress().then((link) => {
  // A link of a world whose lab is loaded on first use: its worker and module start loading now, while the page renders.
  if (link !== null && link.world !== PAGE_WORLDS[0]!.id) {
    const world = pageWorldOf(link.world);
    world.prestart?.();
    void world.load().catch(() => undefined);
  }
  createRoot(rootElement).render(
    <StrictMode>
      <App pages={PAGE_WORLDS} link={link} />
    </StrictMode>,
  );
});
