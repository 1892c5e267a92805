import { useEffect, type ReactNode } from 'react';
import { preloadRunCost } from '../../store/longRun';
import { SpeedSelect } from '../SpeedSelect';
import { preloadWhenIdle } from './deferred';
import { useShell, useShellStore } from './shellStore';

/** What a world puts in the shell's playback bar. */
export interface WorldPlayback {
  /** Test id prefix of play, pause, reset and speed: `controls` (pipeline), `serving`. */
  readonly ids: string;
  readonly speeds: readonly (number | 'max')[];
  /** The text of a numeric speed in the world's unit ("10× (10 queries/s)", "10 × real time"). */
  readonly speedLabel: (speed: number) => string;
  /** The step control, in the world's step (a number of queries, one simulated second). */
  readonly step: ReactNode;
  /** World controls after the speed (the serving world's request rate). */
  readonly extras?: ReactNode;
  /** Where the run is, in the world's unit. */
  readonly progress: ReactNode;
}

/** Play, pause, step, reset and speed for any lab, with the help button and where the run is. */
export function PlaybackBar({ playback, onHelp }: { readonly playback: WorldPlayback; readonly onHelp: () => void }) {
  const store = useShellStore();
  const status = useShell((s) => s.status);
  // A Play asked for and not yet under way shows as playing: Pause cancels it.
  const starting = useShell((s) => s.starting);
  const speed = useShell((s) => s.speed);
  const act = store.getState();
  const { ids } = playback;
  // Play asks the run's cost first (the long-run guard), which the first screen does not carry.
  useEffect(() => preloadWhenIdle(preloadRunCost), []);
  return (
    <div className="playback" role="group" aria-label="Playback">
      <button type="button" data-testid={`${ids}.play`} onClick={() => void act.play()} disabled={status !== 'paused' || starting}>
        ▶ Play
      </button>
      <button type="button" data-testid={`${ids}.pause`} onClick={() => void act.pause()} disabled={status !== 'playing' && !starting}>
        ❚❚ Pause
      </button>
      {playback.step}
      <button type="button" data-testid={`${ids}.reset`} onClick={() => void act.reset()}>
        ⟲ Reset
      </button>
      <SpeedSelect speeds={playback.speeds} value={speed} label={playback.speedLabel} testId={`${ids}.speed`} onChange={(v) => void store.getState().setSpeed(v)} />
      {playback.extras}
      <button type="button" data-testid={`${ids}.help`} onClick={onHelp} aria-keyshortcuts="Shift+?" title="Keyboard shortcuts (?)">
        ? Keys
      </button>
      {playback.progress}
    </div>
  );
}
