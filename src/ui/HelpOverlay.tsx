import { useEffect } from 'react';
import { deferred, preloadWhenIdle } from './shell/deferred';

/** A keyboard shortcut, for the help overlay and the README. */
export interface Shortcut {
  readonly keys: string;
  readonly does: string;
}

/** The keyboard shortcuts of the pipeline lab (teaching mode). */
export const SHORTCUTS: readonly Shortcut[] = [
  { keys: 'Space', does: 'play / pause' },
  { keys: '← / →', does: 'one step back / forward: an algorithm line during a rebalancing, otherwise one query' },
  { keys: 'Shift + ← / →', does: 'previous / next marker on the time line' },
  { keys: '+ / −', does: 'faster / slower' },
  { keys: '?', does: 'show or hide this help' },
  { keys: 'Esc', does: 'close this help' },
  { keys: 'Ctrl+Z / Ctrl+Shift+Z', does: 'undo / redo a scenario edit' },
];

/** The dialog, not on the first load (ARCHITECTURE §7a′): fetched when the browser is first idle, so that `?` opens it at once, also offline. */
const HelpDialog = deferred('help', () => import('./HelpDialog').then((m) => m.HelpDialog), { when: 'onShow' });

/** The help overlay of either lab: a modal dialog listing its keyboard shortcuts, while `open`. */
export function HelpOverlay({ open, onClose, shortcuts }: { readonly open: boolean; readonly onClose: () => void; readonly shortcuts: readonly Shortcut[] }) {
  useEffect(() => preloadWhenIdle(HelpDialog.preload), []);
  return open ? <HelpDialog onClose={onClose} shortcuts={shortcuts} /> : null;
}
