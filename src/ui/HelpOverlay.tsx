import { lazy, Suspense, useEffect } from 'react';
import { whenIdle } from './deferred';
import { useLab } from './labContext';

/** The dialog and its table of shortcuts, not on the first load (issue 12 part 6): fetched when the browser is first idle, so that `?` opens it at once, also offline. */
const helpDialog = () => import('./HelpDialog');
const HelpDialog = lazy(() => helpDialog().then((m) => ({ default: m.HelpDialog })));

/** The help overlay: a modal dialog listing the keyboard shortcuts, while the store's `helpOpen` says so. */
export function HelpOverlay() {
  const open = useLab((s) => s.helpOpen);
  useEffect(() => whenIdle(() => void helpDialog().catch(() => undefined)), []);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <HelpDialog />
    </Suspense>
  );
}
