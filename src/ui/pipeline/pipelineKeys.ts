import { useEffect } from 'react';
import type { PipelineLabStore } from '../../store/pipelineStore';
import { TYPING } from '../shell/historyKeys';

/**
 * Teaching-mode shortcuts (ARCHITECTURE §7a′, keys): Space play/pause, ←/→ one step, Shift+←/→ previous or
 * next marker, +/− speed, ? help, Escape closes the help. Not while typing in a field, not
 * while a workload is dragged with the keyboard (its arrows move it), and Space on a button
 * presses the button. `null`: the pipeline lab is not shown, its keys are off.
 */
export function useTeachingKeys(store: PipelineLabStore | null): void {
  useEffect(() => {
    if (store === null) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      const target = e.target as HTMLElement | null;
      if (target?.closest(TYPING)) return;
      const act = store.getState();
      if (e.key === 'Escape' && act.helpOpen) {
        e.preventDefault();
        act.setHelpOpen(false);
        return;
      }
      if (e.key === '?') {
        e.preventDefault();
        act.setHelpOpen(!act.helpOpen);
        return;
      }
      if (act.helpOpen || act.scenario === null) return;
      const onControl = target?.closest('button, a, [role="button"], [aria-roledescription]') != null;
      const dragging = target?.closest('[aria-roledescription="draggable"]') != null;
      switch (e.key) {
        case ' ':
          if (onControl) return;
          e.preventDefault();
          void (act.status === 'playing' || act.starting ? act.pause() : act.play());
          return;
        case 'ArrowLeft':
        case 'ArrowRight': {
          if (dragging) return;
          e.preventDefault();
          const direction = e.key === 'ArrowRight' ? 1 : -1;
          void (e.shiftKey ? act.stepMarker(direction) : act.stepAlgorithm(direction));
          return;
        }
        case '+':
        case '=':
          e.preventDefault();
          void act.changeSpeed(1);
          return;
        case '-':
        case '_':
        case '−':
          e.preventDefault();
          void act.changeSpeed(-1);
          return;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
}
