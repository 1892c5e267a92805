import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import './ui/app.css';

const rootElement = document.getElementById('root');
if (rootElement === null) {
  throw new Error('index.html has no #root element to mount the lab into.');
}

createRoot(rootElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
