import { lazy, Suspense, useState } from 'react';
import { afterWorlds } from '../../../kit/worlds';

/** The real-run panel and its store and worker, loaded when it is first opened (ARCHITECTURE §7a′). */
const RealPanel = lazy(() => afterWorlds(() => import('./RealPanel')).then((m) => ({ default: m.RealPanel })));

/** The "Run on this machine" button: until it is first pressed, only the button; then the panel, opened. */
export function RealLauncher() {
  const [started, setStarted] = useState(false);
  const button = (
    <button type="button" data-testid="real.open" title="Run this scenario on this machine's cores: real tfjs stages and hogs, beside the simulation" aria-expanded={false} disabled={started} onClick={() => setStarted(true)}>
      Run on this machine…
    </button>
  );
  if (!started) return button;
  return (
    <Suspense fallback={button}>
      <RealPanel />
    </Suspense>
  );
}
