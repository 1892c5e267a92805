import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { ServingState, ServingStore } from '../store/servingStore';
import { gapText, lastPointMs, laneScores, ORACLE_NAMES, SCOREBOARD_WINDOW_S, staleness, type GapScore, type LaneScore } from './scoreboard';

/** The scoreboard is recomputed at most this often while the run plays, wall-clock ms (a frame comes up to 60 times a second). */
const SCOREBOARD_EVERY_MS = 250;

/** What the cards need of the state, recomputed when a frame has come (its version) or the lanes changed. */
function scoresOf(state: ServingState): readonly LaneScore[] {
  return laneScores(state.lanes, state.series);
}

/**
 * Every lane's live scoreboard (`scoreboard.ts`), from the store's series, recomputed at most
 * every SCOREBOARD_EVERY_MS while the run plays (the latest frame is always counted), so that
 * the cards follow the run without rendering on every frame; at once otherwise.
 */
export function useLaneScores(store: ServingStore): readonly LaneScore[] {
  const [scores, setScores] = useState(() => scoresOf(store.getState()));
  useEffect(() => {
    let last = Number.NEGATIVE_INFINITY;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const update = () => {
      // A step, a seek or a pause brings one frame: it is shown at once, with the time it brings.
      const wait = store.getState().status === 'playing' ? SCOREBOARD_EVERY_MS - (performance.now() - last) : 0;
      if (wait > 0) {
        timer ??= setTimeout(() => {
          timer = null;
          update();
        }, wait);
        return;
      }
      last = performance.now();
      setScores(scoresOf(store.getState()));
    };
    update();
    const unsubscribe = store.subscribe((s, previous) => {
      if (s.version !== previous.version || s.lanes !== previous.lanes || s.series !== previous.series) update();
    });
    return () => {
      unsubscribe();
      if (timer !== null) clearTimeout(timer);
    };
  }, [store]);
  return scores;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
const utilityText = (u: number | null | undefined) => (u === null || u === undefined ? '–' : u.toFixed(2));
const pctText = (p: number | null | undefined) => (p === null || p === undefined ? '–' : `${p < 10 ? p.toFixed(1) : p.toFixed(0)} %`);

const gapTitle = (oracle: string) =>
  `Gap to ${oracle} (a reference lane): exp(U − U_oracle) − 1, this lane’s utility (Eq. 3) as a ratio to the oracle’s over the same simulated time, less one. 0 % = as good as the oracle; −10 % = a tenth below it.`;

/** A gap row: the numbers, or where the reference lane is while it has none. */
function GapRow({ store, lane, gap }: { readonly store: ServingStore; readonly lane: number; readonly gap: GapScore }) {
  const search = useStore(store, (s) => s.searches[gap.oracle] ?? null);
  const name = ORACLE_NAMES[gap.kind];
  let waiting: string | null = null;
  if (gap.run === null && gap.window === null) {
    if (search === null) waiting = 'oracle not run yet';
    else if (search.replayedMs !== null) waiting = `oracle catching up: ${seconds(search.replayedMs)}`;
    else waiting = `oracle searching… ${search.done.toLocaleString('en-US')}/${search.total.toLocaleString('en-US')}`;
  }
  return (
    <tr data-testid={`lane-gap.${lane}.${gap.kind}`} data-state={waiting === null ? 'ready' : 'waiting'} data-run={gap.run ?? ''} data-window={gap.window ?? ''} data-as-of-ms={gap.asOfMs ?? ''}>
      <th scope="row">
        <abbr title={gapTitle(name.full)}>{name.short}</abbr>
      </th>
      {waiting !== null ? (
        <td colSpan={2} className="subtle">
          {waiting}
        </td>
      ) : (
        <>
          <td>{gapText(gap.run)}</td>
          <td>{gapText(gap.window)}</td>
        </>
      )}
    </tr>
  );
}

/**
 * A lane card's scoreboard (README "Reading the scoreboard"): utility and SLO violations over
 * the run and the last minute, and the gap to each reference lane; "as of t = … s" when the
 * numbers are not those of the run as it stands (an edit made since, or a lane behind).
 */
export function LaneScoreboard({ store, score }: { readonly store: ServingStore; readonly score: LaneScore | undefined }) {
  const timeMs = useStore(store, (s) => s.timeMs);
  const slotMs = useStore(store, (s) => s.slotMs);
  const editedAtMs = useStore(store, (s) => s.editedAtMs);
  const lane = score?.lane ?? -1;
  const pointMs = useStore(store, (s) => lastPointMs(s.series[lane]));
  // Requests waiting now past their deadline: counted as violations only once served or rejected (an overload with late requests kept piles them up).
  const lateQueued = useStore(store, (s) => s.live[lane]?.models.reduce((n, m) => n + m.slack.late, 0) ?? 0);
  if (score === undefined || score.run === null) return null;
  const stale = staleness(score.asOfMs, timeMs, pointMs, slotMs, editedAtMs);
  // A gap behind the lane's own numbers (its oracle has run less far) says from when it is.
  const gapsBehind = score.gaps.some((g) => g.asOfMs !== null && score.asOfMs !== null && g.asOfMs < score.asOfMs - pointMs - slotMs);
  const window = `last ${SCOREBOARD_WINDOW_S} s`;
  return (
    <div className="lane-score-box">
      <table
        className={`lane-score${stale !== null ? ' stale' : ''}`}
        data-testid={`lane-score.${lane}`}
        data-utility={score.run.utility ?? ''}
        data-violation-pct={score.run.violationPct ?? ''}
        data-as-of-ms={score.asOfMs ?? ''}
        data-stale={stale === null ? 'no' : stale.kind}
      >
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">measure</span>
            </th>
            <th scope="col">run</th>
            <th scope="col">{window}</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">utility</th>
            <td>{utilityText(score.run.utility)}</td>
            <td>{utilityText(score.window?.utility)}</td>
          </tr>
          <tr>
            <th scope="row">
              <abbr title="Requests counted in the span as missing their SLO (served late, failed or rejected), per request that reached the edge in it; a request still queued is counted once it is served or rejected">SLO violations</abbr>
            </th>
            <td>{pctText(score.run.violationPct)}</td>
            <td>{pctText(score.window?.violationPct)}</td>
          </tr>
          {score.gaps.map((g) => (
            <GapRow key={g.kind} store={store} lane={lane} gap={g} />
          ))}
        </tbody>
      </table>
      {lateQueued > 0 ? (
        <span className="lane-late" data-testid={`lane-late.${lane}`} data-late={lateQueued}>
          and {lateQueued.toLocaleString('en-US')} queued request{lateQueued === 1 ? '' : 's'} already past {lateQueued === 1 ? 'its' : 'their'} SLO now (counted once served or rejected)
        </span>
      ) : null}
      {stale !== null ? (
        <span className="lane-stale" data-testid={`lane-stale.${lane}`} role="note">
          as of t = {seconds(stale.asOfMs)}
          {stale.kind === 'edited' ? `, before the edit at ${seconds(stale.editMs)}: play on to see it` : ''}
        </span>
      ) : gapsBehind ? (
        <span className="lane-stale" data-testid={`lane-stale.${lane}`} role="note">
          gaps as of t = {seconds(Math.min(...score.gaps.map((g) => g.asOfMs ?? Number.POSITIVE_INFINITY)))} (the oracle’s run is behind)
        </span>
      ) : null}
    </div>
  );
}
