import { useEffect, useId, useRef } from 'react';
import type { Shortcut } from './HelpOverlay';

/** The help overlay's dialog (either lab): its keyboard shortcuts, modal; `HelpOverlay.tsx` loads it and shows it while the help is open. */
export function HelpDialog({ onClose, shortcuts }: { readonly onClose: () => void; readonly shortcuts: readonly Shortcut[] }) {
  const headingId = useId();
  const close = useRef<HTMLButtonElement>(null);
  // Shown only while open: the focus goes to Close when it appears.
  useEffect(() => {
    close.current?.focus();
  }, []);
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
