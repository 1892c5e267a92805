import { useEffect, useId, useRef } from 'react';
import { pseudocodeOf } from '../schedulers/teaching';
import { usePipelineLab, usePipelineStore } from './pipelineContext';
import { loadOnce, now, useLoaded, whenIdle } from '../../../ui/shell/deferred';

/** The steps' narration and watch list: not on the first load (ARCHITECTURE §7a′), fetched when the browser is first idle or a step is shown. */
const narrationModule = loadOnce(() => import('../schedulers/narration'));

/**
 * The algorithm panel (teaching mode): the pseudocode of the followed lane's algorithm (ODIN's
 * Algorithm 1 as printed, or LLS), the line being executed highlighted, the live variables,
 * and one sentence on what the step does. ← and → (or the buttons) step through it.
 */
export function AlgorithmPanel() {
  const store = usePipelineStore();
  // At full speed the panel rests (a line-by-line view of thousands of rebalancings a
  // second teaches nothing, and redrawing it costs the page frames): pause or step to follow.
  const fast = usePipelineLab((s) => s.status === 'playing' && (s.speed === 'max' || s.speed > 1000));
  const teaching = usePipelineLab((s) => (s.status === 'playing' && (s.speed === 'max' || s.speed > 1000) ? null : s.teaching));
  const laneLabel = usePipelineLab((s) => s.lanes[s.selectedLane]?.label ?? '');
  // The query it narrates is the one the teaching frame was made at: while the run plays
  // the panel follows those frames (twice a second), not every frame's query count.
  const served = usePipelineLab((s) => (s.status === 'playing' ? s.teachingServed : s.served));
  const headingId = useId();
  const codeRef = useRef<HTMLOListElement>(null);
  const algorithm = teaching?.algorithm ?? null;
  const step = teaching !== null && teaching.cursor >= 0 ? (teaching.steps[teaching.cursor] ?? null) : null;
  const currentLine = step?.line ?? null;
  const act = store.getState();
  // Fetched when the browser is first idle, at once when a step is shown.
  const narrationOf = useLoaded(narrationModule, step !== null ? now : whenIdle, narrationModule.value() ?? null);

  // The highlighted line is kept in view inside the pseudocode's own box (it scrolls by itself,
  // app.css), without scrolling the page: the board and the chart stay where they are.
  useEffect(() => {
    const code = codeRef.current;
    const line = code?.querySelector<HTMLElement>('li.current');
    if (code === null || code === undefined || line === null || line === undefined) return;
    const top = line.offsetTop;
    if (top < code.scrollTop) code.scrollTop = Math.max(0, top - 4);
    else if (top + line.offsetHeight > code.scrollTop + code.clientHeight) code.scrollTop = top + line.offsetHeight - code.clientHeight + 4;
  }, [currentLine, algorithm]);

  let narration: string;
  if (fast) narration = 'Running at full speed: pause, or step with → , to follow the algorithm line by line.';
  else if (algorithm === null) narration = `${laneLabel || 'This lane'} has no line-by-line algorithm: select an ODIN or LLS lane to follow its rebalancing.`;
  else if (step !== null) narration = narrationOf === null ? `Line ${step.line}.` : narrationOf.narrate(step);
  else if (teaching?.rebalancing) narration = `Query ${served - 1} was one of those already in the pipeline when the change was detected: it finishes on the old configuration before the next trial runs (serial trials, ODIN §4.2).`;
  else narration = `No rebalancing ran during query ${Math.max(0, served - 1)}: ${algorithm === 'odin' ? 'ODIN' : 'LLS'} waits for the monitor to see the slowest stage change.`;

  return (
    <section className="panel algorithm" aria-labelledby={headingId} data-testid="algorithm" data-algorithm={algorithm ?? 'none'} data-current-line={currentLine ?? ''}>
      <div className="algorithm-head">
        <h2 id={headingId}>
          {algorithm === 'lls' ? 'LLS (ODIN §3.3)' : 'ODIN, Algorithm 1'} <span className="subtle">— {laneLabel}</span>
        </h2>
        <div className="algorithm-steps" role="group" aria-label="Algorithm steps">
          <button type="button" data-testid="algorithm.back" onClick={() => void act.stepAlgorithm(-1)} aria-keyshortcuts="ArrowLeft" title="Step back (←)">
            ◂ Back
          </button>
          <span className="step-count" data-testid="algorithm.position">
            {teaching !== null && teaching.steps.length > 0 ? `step ${teaching.cursor + 1} of ${teaching.steps.length} in query ${served - 1}` : `query ${Math.max(0, served - 1)}`}
          </span>
          <button type="button" data-testid="algorithm.forward" onClick={() => void act.stepAlgorithm(1)} aria-keyshortcuts="ArrowRight" title="Step forward (→)">
            Step ▸
          </button>
        </div>
      </div>
      <p className="narration" data-testid="algorithm.narration" aria-live="polite">
        {narration}
      </p>
      {algorithm === null || fast ? null : (
        <div className="algorithm-body">
          <ol ref={codeRef} className="pseudocode" tabIndex={0} aria-label={algorithm === 'odin' ? 'Algorithm 1 (ODIN), as printed in the paper' : 'LLS, the lab’s pseudocode'}>
            {pseudocodeOf(algorithm).map((l) => (
              <li
                key={l.line}
                value={l.line}
                data-testid={`algorithm.line-${l.line}`}
                className={l.line === currentLine ? 'current' : undefined}
                aria-current={l.line === currentLine ? 'step' : undefined}
                style={{ paddingLeft: `${l.depth * 1.4 + 0.3}rem` }}
              >
                <code>{l.text}</code>
                {l.comment ? <span className="comment"> ▷ {l.comment}</span> : null}
              </li>
            ))}
          </ol>
          {step === null || narrationOf === null ? (
            <p className="watch subtle" data-testid="algorithm.watch">
              The variables appear while the algorithm runs.
            </p>
          ) : (
            <dl className="watch" aria-label="Watch list" data-testid="algorithm.watch">
              {narrationOf.watchList(step).map((row) => (
                <div key={row.key} className="watch-row" data-wide={row.value.length > 8}>
                  <dt>{row.name}</dt>
                  <dd data-testid={`algorithm.watch.${row.key}`}>{row.value}</dd>
                </div>
              ))}
            </dl>
          )}
        </div>
      )}
      <p className="hint">Stages are numbered from 1, as on the board. ← → step, Shift+← → jump between markers, ? for all shortcuts.</p>
    </section>
  );
}
