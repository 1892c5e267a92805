import { SpeedSelect } from './SpeedSelect';
import { useState } from 'react';
import { SPEEDS } from '../store/labStore';
import { useLab, useLabStore } from './labContext';

/** 1× is one query per second: a pace a class can follow. */
const speedLabel = (speed: number) => `${speed.toLocaleString('en-US')}× (${speed.toLocaleString('en-US')} ${speed === 1 ? 'query' : 'queries'}/s)`;

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Play, pause, step, reset and speed, with where the run is. */
export function PlaybackBar() {
  const store = useLabStore();
  const status = useLab((s) => s.status);
  const served = useLab((s) => s.served);
  const total = useLab((s) => s.totalQueries);
  const speed = useLab((s) => s.speed);
  const measuredSpeed = useLab((s) => s.measuredSpeed);
  const fps = useLab((s) => s.framesPerSecond);
  const [stepSize, setStepSize] = useState(1);
  const act = store.getState();
  return (
    <div className="playback" role="group" aria-label="Playback">
      <button type="button" data-testid="controls.play" onClick={() => void act.play()} disabled={status !== 'paused'}>
        ▶ Play
      </button>
      <button type="button" data-testid="controls.pause" onClick={() => void act.pause()} disabled={status !== 'playing'}>
        ❚❚ Pause
      </button>
      <span className="step">
        <button type="button" data-testid="controls.step" onClick={() => void act.step(stepSize)} disabled={status === 'done'}>
          Step
        </button>
        <label>
          <span className="visually-hidden">Queries per step</span>
          <input
            type="number"
            min={1}
            max={100000}
            value={stepSize}
            data-testid="controls.step-size"
            onChange={(e) => setStepSize(Math.max(1, Math.min(100_000, Math.round(Number(e.target.value)) || 1)))}
          />
        </label>
      </span>
      <button type="button" data-testid="controls.reset" onClick={() => void act.reset()}>
        ⟲ Reset
      </button>
      <SpeedSelect speeds={SPEEDS} value={speed} label={speedLabel} testId="controls.speed" onChange={(v) => void act.setSpeed(v)} />
      <button type="button" data-testid="controls.help" onClick={() => act.setHelpOpen(true)} aria-keyshortcuts="Shift+?" title="Keyboard shortcuts (?)">
        ? Keys
      </button>
      <output className="progress" data-testid="playback.served" data-served={served} data-status={status} aria-live="off">
        query {integer.format(served)} / {integer.format(total)} · {status}
        <span className="rate">
          {' '}
          · {integer.format(measuredSpeed)} q/s · {fps} fps
        </span>
      </output>
    </div>
  );
}
