import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { isWorkerRestarted } from './store/restartingWorker';
import type { OpenedLink } from './scenario/link';
import { App } from './ui/App';
import { linkCodec } from './ui/linkSync';
import { PAGE_WORLDS } from './worlds/pages';
import './ui/app.css';

const rootElement = document.getElementById('root');
if (rootElement === null) {
  throw new Error('index.html has no #root element to mount the lab into.');
}

// A call cut short because its worker was restarted is cancelled, not failed: the banner
// already says that the simulation was restarted (STYLE: cancellation is not an error).
window.addEventListener('unhandledrejection', (event) => {
  if (isWorkerRestarted(event.reason)) event.preventDefault();
});

/**
 * The link in the address bar is opened before the page renders (its codec is a small chunk),
 * so that the first screen is the link's own lab: a link of another world than the first does
 * not start the first world's lab and worker beside its own (App).
 */
async function openAddress(): Promise<OpenedLink | null> {
  const hash = window.location.hash.replace(/^#/, '');
  if (hash === '') return null;
  try {
    return (await linkCodec()).openLink(hash);
  } catch (error) {
    // The codec's chunk did not load: the first lab says so over its default, and the address keeps the link.
    return { ok: false, world: PAGE_WORLDS[0]!.id as OpenedLink['world'], errors: [{ path: 'link', message: `could not be read: ${error instanceof Error ? error.message : String(error)}` }] };
  }
}

void openAddress().then((link) =>
  createRoot(rootElement).render(
    <StrictMode>
      <App link={link} />
    </StrictMode>,
  ),
);
