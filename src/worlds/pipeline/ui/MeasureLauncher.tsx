import { lazy, Suspense, useState } from 'react';

/** The Measure panel and its store and worker, loaded when it is first opened (ARCHITECTURE §7a′). */
const MeasurePanel = lazy(() => import('./MeasurePanel').then((m) => ({ default: m.MeasurePanel })));

/**
 * The Measure button: until it is first pressed, only the button; then the panel (which has
 * the same button to hide and show it again), opened.
 */
export function MeasureLauncher() {
  const [started, setStarted] = useState(false);
  const button = (
    <button type="button" data-testid="measure.open" title="Measure the layer-time database on this machine" aria-expanded={false} disabled={started} onClick={() => setStarted(true)}>
      Measure…
    </button>
  );
  if (!started) return button;
  return (
    <Suspense fallback={button}>
      <MeasurePanel initiallyOpen />
    </Suspense>
  );
}
