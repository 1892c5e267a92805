import { useEffect, useId, useRef } from 'react';

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

/** The help overlay of either lab: a modal dialog listing its keyboard shortcuts. */
export function HelpOverlay({ open, onClose, shortcuts }: { readonly open: boolean; readonly onClose: () => void; readonly shortcuts: readonly Shortcut[] }) {
  const headingId = useId();
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) close.current?.focus();
  }, [open]);
  if (!open) return null;
  return (
    <div className="help-backdrop" onClick={onClose}>
      <div className="help panel" role="dialog" aria-modal="true" aria-labelledby={headingId} data-testid="help" onClick={(e) => e.stopPropagation()}>
        <h2 id={headingId}>Keyboard shortcuts</h2>
        <p className="subtle">They work anywhere on the page except while you type in a field.</p>
        <table>
          <tbody>
            {shortcuts.map((s) => (
              <tr key={s.keys}>
                <th scope="row">
                  <kbd>{s.keys}</kbd>
                </th>
                <td>{s.does}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <button type="button" ref={close} data-testid="help.close" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
