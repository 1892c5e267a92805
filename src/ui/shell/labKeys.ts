import { useEffect } from 'react';
import type { AnyLabStore } from '../../store/liveStore';
import { TYPING } from './historyKeys';

/** What a key does in a lab (both labs share the keys; only a step's size is the world's). */
export type LabKeyAction = 'playPause' | 'stepBack' | 'stepForward' | 'markerBack' | 'markerForward' | 'faster' | 'slower' | 'toggleHelp' | 'closeHelp';

/** A key press as the keys read it. */
export interface LabKeyPress {
  readonly key: string;
  readonly shiftKey: boolean;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
}

/** Where the key was pressed. */
export interface LabKeyTarget {
  /** A text field, a number field, a select, an editable area: keys are typed there, never shortcuts. */
  readonly typing: boolean;
  /** A workload picked up with the keyboard: Space drops it and the arrows move it. */
  readonly dragging: boolean;
  /** The help overlay is open: only ? and Esc act. */
  readonly helpOpen: boolean;
}

/**
 * The lab's keys (ARCHITECTURE §7a′, keys), pure: Space plays or pauses everywhere but in a text
 * field — also on a focused button, which it does not press again (a button clicked a moment ago
 * keeps the focus, and Space then pressed it twice over, issue 37) —, ← → one step, Shift+← →
 * the previous or next marker, + − the speed, ? the help, Esc closes it. Null: not a key of the lab.
 */
export function labKeyAction(press: LabKeyPress, at: LabKeyTarget): LabKeyAction | null {
  if (press.ctrlKey || press.metaKey || press.altKey || at.typing) return null;
  if (press.key === 'Escape') return at.helpOpen ? 'closeHelp' : null;
  if (press.key === '?') return 'toggleHelp';
  if (at.helpOpen) return null;
  switch (press.key) {
    case ' ':
      return at.dragging ? null : 'playPause';
    case 'ArrowLeft':
      return at.dragging ? null : press.shiftKey ? 'markerBack' : 'stepBack';
    case 'ArrowRight':
      return at.dragging ? null : press.shiftKey ? 'markerForward' : 'stepForward';
    case '+':
    case '=':
      return 'faster';
    case '-':
    case '_':
    case '−':
      return 'slower';
    default:
      return null;
  }
}

/** Where a keyboard event was pressed, read off its target. */
export function keyTarget(target: EventTarget | null, helpOpen: boolean): LabKeyTarget {
  const element = target instanceof Element ? target : null;
  const field = element?.closest(TYPING) ?? null;
  // A checkbox or a radio button is pressed with Space like a button: it is not typing.
  const typing = field !== null && !(field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio' || field.type === 'range'));
  return { typing, dragging: element?.closest('[aria-roledescription="draggable"]') != null, helpOpen };
}

/**
 * The lab's keys on the page, for the shown lab's store (either world): `step` is the world's step
 * forward or back (an algorithm line or a query in the pipeline lab, a scheduling slot in the
 * serving lab). `null`: the lab is not shown, its keys are off.
 */
export function useLabKeys(store: AnyLabStore | null, step: (direction: 1 | -1) => void): void {
  useEffect(() => {
    if (store === null) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const act = store.getState();
      const action = labKeyAction(e, keyTarget(e.target, act.helpOpen));
      if (action === null || (act.scenario === null && action !== 'toggleHelp' && action !== 'closeHelp')) return;
      e.preventDefault();
      switch (action) {
        case 'playPause':
          return void (act.status === 'playing' || act.starting ? act.pause() : act.play());
        case 'stepBack':
          return step(-1);
        case 'stepForward':
          return step(1);
        case 'markerBack':
          return void act.stepMarker(-1);
        case 'markerForward':
          return void act.stepMarker(1);
        case 'faster':
          return void act.changeSpeed(1);
        case 'slower':
          return void act.changeSpeed(-1);
        case 'toggleHelp':
          return act.setHelpOpen(!act.helpOpen);
        case 'closeHelp':
          return act.setHelpOpen(false);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, step]);
}
