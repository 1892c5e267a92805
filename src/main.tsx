import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { isWorkerRestarted } from './store/restartingWorker';
import { App } from './ui/App';
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

createRoot(rootElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
