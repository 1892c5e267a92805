import { lazy, Suspense } from 'react';
import { useLab } from './labContext';

/** The dialog and its table of shortcuts, loaded when the help is first opened (issue 12 part 6). */
const HelpDialog = lazy(() => import('./HelpDialog').then((m) => ({ default: m.HelpDialog })));

/** The help overlay: a modal dialog listing the keyboard shortcuts, while the store's `helpOpen` says so. */
export function HelpOverlay() {
  const open = useLab((s) => s.helpOpen);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <HelpDialog />
    </Suspense>
  );
}
