import { useState } from 'react';
import { PIPELINE_SPEEDS } from '../store/pipelineStore';
import { usePipelineLab, usePipelineStore } from './pipelineContext';
import type { WorldPlayback } from '../../../ui/shell/PlaybackBar';

/** 1× is one query per second: a pace a class can follow. */
const speedLabel = (speed: number) => `${speed.toLocaleString('en-US')}× (${speed.toLocaleString('en-US')} ${speed === 1 ? 'query' : 'queries'}/s)`;

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Step by a chosen number of queries. */
function PipelineStep() {
  const store = usePipelineStore();
  const done = usePipelineLab((s) => s.status === 'done');
  const [stepSize, setStepSize] = useState(1);
  return (
    <span className="step">
      <button type="button" data-testid="controls.step" onClick={() => void store.getState().step(stepSize)} disabled={done}>
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
  );
}

/** Where the pipeline run is: queries served, measured speed and frames per second. */
function PipelineProgress() {
  const status = usePipelineLab((s) => s.status);
  const served = usePipelineLab((s) => s.served);
  const total = usePipelineLab((s) => s.totalQueries);
  const measuredSpeed = usePipelineLab((s) => s.measuredSpeed);
  const fps = usePipelineLab((s) => s.framesPerSecond);
  return (
    <output className="progress" data-testid="playback.served" data-served={served} data-status={status} aria-live="off">
      query {integer.format(served)} / {integer.format(total)} · {status}
      <span className="rate">
        {' '}
        · {integer.format(measuredSpeed)} q/s · {fps}{' '}
        <abbr title="frames per second: how often the page redraws the run (not the pipeline's throughput)">fps</abbr>
      </span>
    </output>
  );
}

/** The pipeline world's part of the shell's playback bar: steps of queries, speeds in queries per second. */
export const PIPELINE_PLAYBACK: WorldPlayback = {
  ids: 'controls',
  speeds: PIPELINE_SPEEDS,
  speedLabel,
  step: <PipelineStep />,
  progress: <PipelineProgress />,
};
