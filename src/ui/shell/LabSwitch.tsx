import { useContext } from 'react';
import { PageWorldsContext, ShownWorldContext, SwitchLabContext } from './pageWorld';

/**
 * The header's way to both labs (one per world of the page's list), each named with the paper it
 * reproduces; the shown one is marked current. Test ids `labs.<world>`.
 */
export function LabSwitch() {
  const switchLab = useContext(SwitchLabContext);
  const shown = useContext(ShownWorldContext);
  const pages = useContext(PageWorldsContext);
  // A lab rendered outside the page (a test of one lab) has no other lab to go to.
  if (switchLab === null || pages.length < 2) return null;
  return (
    <nav className="lab-switch" aria-label="Labs">
      {pages.map((w) => (
        <button key={w.id} type="button" data-testid={`labs.${w.id}`} aria-current={w.id === shown ? 'page' : undefined} title={w.about} onClick={() => switchLab(w.id)}>
          {w.label}
        </button>
      ))}
    </nav>
  );
}

/** The one line that says what the page is and which papers it reproduces. */
export function LabAbout() {
  return (
    <p className="lab-about" data-testid="app.about">
      Reproduces two papers live, every scheduler on the same seeded trace: <strong>ODIN</strong> (rebalancing a CNN pipeline under interference) and <strong>BCEdge</strong>{' '}
      (batching on an edge GPU).
    </p>
  );
}
