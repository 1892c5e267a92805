import { SacWalkthrough } from './SacWalkthrough';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useStore } from 'zustand';
import { formatMicros } from '../charts/decisionTimeChart';
import { laneColour } from '../../../charts/palette';
import { formatNumber } from '../../../charts/runtime';
import type { ServingState, ServingStore } from '../store/servingStore';
import type { HealthEpisode, ServingLaneInfo } from '../worker/servingProtocol';
import { downloadText } from '../../../ui/download';
import { createAgentStorage, type AgentStorage, type SavedAgentInfo } from './agentStorage';
import { UpdateRateMeter, agentFileName, checkAgentFileSize, learningStatus, parseAgentText } from './learningData';

function useServing<T>(store: ServingStore, selector: (s: ServingState) => T): T {
  return useStore(store, selector);
}

/** How often the updates-per-second figures are refreshed, ms. */
const RATE_REFRESH_MS = 500;

/**
 * Gradient updates per second of every lane, measured in the page from successive frames
 * (a restart starts a lane's measure over); refreshed twice a second.
 */
function useUpdateRates(store: ServingStore): readonly (number | null)[] {
  const [rates, setRates] = useState<readonly (number | null)[]>([]);
  useEffect(() => {
    const meter = new UpdateRateMeter();
    let published = Number.NEGATIVE_INFINITY;
    return store.subscribe(
      (s) => s.version,
      () => {
        const s = store.getState();
        const now = performance.now();
        meter.observe(
          now,
          s.generation,
          s.learning.map((l) => l?.updates ?? null),
        );
        if (now - published >= RATE_REFRESH_MS) {
          published = now;
          setRates(meter.rates());
        }
      },
    );
  }, [store]);
  return rates;
}

/** A short local date and time for the saved agents' list. */
function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What one lane's card does with agents; every failure goes to the page's error banner. */
interface LaneActions {
  readonly busy: boolean;
  run(what: string, task: () => Promise<void>): void;
}

function LearningLaneCard({
  store,
  lane,
  storage,
  rate,
  loaded,
  onLoaded,
  actions,
}: {
  readonly store: ServingStore;
  readonly lane: ServingLaneInfo;
  readonly storage: AgentStorage;
  readonly rate: number | null;
  readonly loaded: boolean;
  readonly onLoaded: (lane: number, what: string) => void;
  readonly actions: LaneActions;
}) {
  const i = lane.index;
  const learning = useServing(store, (s) => s.learning[i] ?? null);
  const timeMs = useServing(store, (s) => s.timeMs);
  const durationMs = useServing(store, (s) => s.durationMs);
  const status = useServing(store, (s) => s.status);
  const title = useServing(store, (s) => s.scenario?.title ?? 'scenario');
  const decisionUs = useServing(store, (s) => s.decisionUs[i] ?? 0) ?? 0;
  const [note, setNote] = useState<string>('');
  const [saved, setSaved] = useState<readonly SavedAgentInfo[] | null>(null);
  const file = useRef<HTMLInputElement>(null);
  const act = store.getState();
  const { status: kind, text } = learningStatus(lane.params, loaded);
  const slots = learning?.slots ?? 0;
  const shownRate = status === 'playing' ? rate : null;
  /** Test ids: `learning.<what>.<lane index>` (the bench reads `learning.recent-reward.<lane>`). */
  const id = (what: string) => `learning.${what}.${i}`;

  const exportAgent = async () => {
    const agent = await act.exportAgent(i);
    if (agent === null) throw new Error(`${lane.label} has no agent to export`);
    return agent;
  };
  const save = () =>
    actions.run('agent storage', async () => {
      const agent = await exportAgent();
      const entry = await storage.save({ scheduler: lane.scheduler, title, label: lane.label, agent });
      setNote(`Saved in this browser (${when(entry.savedAt)}) as “${entry.title}”.`);
      if (saved !== null) setSaved(await storage.list(lane.scheduler));
    });
  const toggleSaved = () => {
    if (saved !== null) {
      setSaved(null);
      return;
    }
    actions.run('agent storage', async () => {
      const list = await storage.list(lane.scheduler);
      setSaved(list);
      setNote(list.length === 0 ? `No ${lane.label} agent saved in this browser yet.` : `${list.length} saved agent${list.length === 1 ? '' : 's'} for this scheduler.`);
    });
  };
  const loadSaved = (entry: SavedAgentInfo) =>
    actions.run('agent storage', async () => {
      const found = await storage.load(entry.key);
      if (found === null) throw new Error(`the agent “${entry.title}” is no longer saved in this browser`);
      if (await act.importAgent(i, found.agent)) {
        onLoaded(i, `“${entry.title}” (saved ${when(entry.savedAt)})`);
        setNote(`Loaded “${entry.title}” (saved ${when(entry.savedAt)}): it acts from the next slot.`);
        setSaved(null);
      }
    });
  const removeSaved = (entry: SavedAgentInfo) =>
    actions.run('agent storage', async () => {
      await storage.remove(entry.key);
      setSaved(await storage.list(lane.scheduler));
      setNote(`Deleted “${entry.title}” from this browser.`);
    });
  const download = () =>
    actions.run('agent', async () => {
      const agent = await exportAgent();
      const name = agentFileName(lane.scheduler, title, new Date());
      downloadText(name, JSON.stringify(agent), 'application/json');
      setNote(`Downloaded ${name}.`);
    });
  const pickFile = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const picked = input.files?.[0];
    input.value = ''; // the same file can be picked again
    if (picked === undefined) return;
    actions.run('agent', async () => {
      const tooBig = checkAgentFileSize(picked.name, picked.size);
      if (tooBig !== null) {
        act.reject('file', [tooBig]);
        return;
      }
      const parsed = parseAgentText(picked.name, await picked.text());
      if (!parsed.ok) {
        act.reject('file', [parsed.error]);
        return;
      }
      if (await act.importAgent(i, parsed.value)) {
        onLoaded(i, picked.name);
        setNote(`Loaded ${picked.name}: it acts from the next slot.`);
      }
    });
  };
  const retrain = () =>
    actions.run('lane', async () => {
      if (await act.trainFromScratch(i)) setNote('Restarted the run with this lane learning from scratch.');
    });

  return (
    <li className="learning-lane" data-testid={id('lane')} data-scheduler={lane.scheduler} data-status={kind} style={{ ['--lane' as string]: laneColour(i) }}>
      <div className="learning-lane-head">
        <h3 className="learning-lane-title">
          <span className="swatch" aria-hidden="true" />
          {lane.label}
        </h3>
        <span className={`learning-status learning-status-${kind}`} data-testid={id('status')}>
          {text}
        </span>
      </div>
      <label className="learning-progress">
        <span>
          simulated time {(timeMs / 1000).toFixed(0)} s / {(durationMs / 1000).toFixed(0)} s · {slots.toLocaleString('en-US')} decisions
        </span>
        <progress
          max={Math.max(1, durationMs)}
          value={Math.min(timeMs, durationMs)}
          aria-label={`${lane.label}: simulated time ${(timeMs / 1000).toFixed(0)} of ${(durationMs / 1000).toFixed(0)} s, ${slots} decisions`}
          data-testid={id('progress')}
        />
      </label>
      <dl className="learning-numbers">
        <div>
          <dt title="one per slot of a model (Eq. 1), or per fixed slot">decisions</dt>
          <dd data-testid={id('slots')} data-value={slots}>
            {slots.toLocaleString('en-US')}
          </dd>
        </div>
        <div>
          <dt>updates</dt>
          <dd data-testid={id('updates')} data-value={learning?.updates ?? 0}>
            {(learning?.updates ?? 0).toLocaleString('en-US')}
          </dd>
        </div>
        <div>
          <dt>updates/s</dt>
          <dd data-testid={id('rate')} data-value={shownRate ?? ''} title="gradient updates per wall-clock second, measured in the page">
            {shownRate === null ? '–' : shownRate.toFixed(0)}
          </dd>
        </div>
        <div>
          <dt>
            reward, last {learning?.recentSlots ?? 0} slot{learning?.recentSlots === 1 ? '' : 's'}
          </dt>
          <dd data-testid={id('recent-reward')} data-value={learning?.recentReward ?? ''} data-slots={slots} title="mean reward (utility) over the last 100 slots">
            {learning?.recentReward == null ? '–' : learning.recentReward.toFixed(3)}
          </dd>
        </div>
        <div>
          <dt>last reward</dt>
          <dd data-testid={id('reward')}>{learning?.lastReward == null ? '–' : learning.lastReward.toFixed(3)}</dd>
        </div>
        {learning?.temperature != null ? (
          <div>
            <dt>
              temperature <abbr title="SAC's entropy temperature, tuned automatically">α</abbr>
            </dt>
            <dd data-testid={id('alpha')} data-value={learning.temperature}>
              {formatNumber(learning.temperature)}
            </dd>
          </div>
        ) : null}
        {learning?.epsilon != null ? (
          <div>
            <dt>
              exploration <abbr title="DDQN's ε-greedy exploration rate">ε</abbr>
            </dt>
            <dd data-testid={id('epsilon')} data-value={learning.epsilon}>
              {formatNumber(learning.epsilon)}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>per decision</dt>
          <dd data-testid={id('decision')}>{decisionUs > 0 ? formatMicros(decisionUs) : '–'}</dd>
        </div>
        {lane.scheduler === 'bcedge' && lane.params['predictor'] !== 0 ? (
          <div>
            <dt>masked by predictor</dt>
            <dd title="actions the interference predictor removed at the last decision">{learning?.predictorMasked ?? 0}</dd>
          </div>
        ) : null}
        <div>
          <dt title="entropy of the actions each model chose over its last 256 decisions, mean over the models: 0 = always the same action, ln 64 ≈ 4.16 = uniform">decision entropy</dt>
          <dd data-testid={id('decision-entropy')} data-value={learning?.health.decisionEntropy ?? ''}>
            {learning?.health.decisionEntropy == null ? '–' : `${learning.health.decisionEntropy.toFixed(2)} nats`}
          </dd>
        </div>
        {learning?.health.qSpread != null ? (
          <div>
            <dt title="the critic’s view of its recent decisions: the spread of Q(s, ·) over the allowed actions (near 0: it cannot tell them apart), and how far below its best the chosen action is (near 0: the policy follows its critic)">
              critic spread / gap
            </dt>
            <dd data-testid={id('critic')} data-value={learning.health.qGap ?? ''}>
              {`${formatNumber(learning.health.qSpread)} / ${formatNumber(learning.health.qGap ?? 0)}`}
            </dd>
          </div>
        ) : null}
        <div>
          <dt title="share of the last 1000 rewards that were the stall’s −10 (every request a decision governed lost or late)">stall rewards</dt>
          <dd data-testid={id('stall-share')}>{learning?.health.stallSharePct == null ? '–' : `${learning.health.stallSharePct.toFixed(1)} %`}</dd>
        </div>
        <div>
          <dt title="requests queued over all models at the last decision">backlog</dt>
          <dd data-testid={id('backlog')}>{learning == null ? '–' : learning.health.backlog.toLocaleString('en-US')}</dd>
        </div>
      </dl>
      {learning != null && learning.health.warnings.length > 0 ? (
        <ul className="learning-warnings" role="status" data-testid={id('warnings')}>
          {learning.health.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
      {learning != null && learning.health.episodes.some((e) => e.toS !== null) ? (
        <p className="learning-episodes" data-testid={id('episodes')}>
          Earlier in the run: {pastEpisodes(learning.health.episodes)} (the largest backlog, {learning.health.peakBacklog.requests.toLocaleString('en-US')} requests, at {Math.round(learning.health.peakBacklog.atS)} s).
        </p>
      ) : null}
      <div className="learning-actions" role="group" aria-label={`${lane.label}: agent`}>
        <button type="button" data-testid={id('scratch')} disabled={actions.busy} onClick={retrain} title="Restart the run with this lane learning from random weights (exploring, training)">
          Train from scratch
        </button>
        <button type="button" data-testid={id('save')} disabled={actions.busy} onClick={save} title="Keep this agent in this browser (IndexedDB), under this scheduler and scenario">
          Save in this browser
        </button>
        <button type="button" data-testid={id('saved')} disabled={actions.busy} aria-expanded={saved !== null} onClick={toggleSaved}>
          Load saved…
        </button>
        <button type="button" data-testid={id('download')} disabled={actions.busy} onClick={download}>
          Download agent
        </button>
        <button type="button" data-testid={id('upload')} disabled={actions.busy} onClick={() => file.current?.click()}>
          Load agent file…
        </button>
        <input ref={file} type="file" accept="application/json,.json" hidden aria-label={`Agent file for ${lane.label}`} data-testid={id('file')} onChange={pickFile} />
      </div>
      {saved !== null ? (
        <ul className="saved-agents" aria-label={`Agents saved in this browser for ${lane.label}`} data-testid={id('saved-list')}>
          {saved.length === 0 ? <li className="subtle">None yet: use “Save in this browser”.</li> : null}
          {saved.map((entry) => (
            <li key={entry.key}>
              <span>
                {entry.title} <span className="subtle">— {entry.label}, saved {when(entry.savedAt)}</span>
              </span>
              <button type="button" disabled={actions.busy} onClick={() => loadSaved(entry)} aria-label={`Load the agent saved from ${entry.title}`} data-testid={id('load-saved')}>
                Load
              </button>
              <button type="button" disabled={actions.busy} onClick={() => removeSaved(entry)} aria-label={`Delete the agent saved from ${entry.title}`}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="learning-note" role="status" data-testid={id('note')}>
        {note}
      </p>
      {lane.scheduler === 'bcedge' || lane.scheduler === 'tac' ? <SacWalkthrough store={store} lane={i} /> : null}
    </li>
  );
}

/**
 * The serving page's learning lanes (BCEdge's SAC, TAC, PPO, DDQN, which run in the serving
 * worker with TensorFlow.js): per lane its status, progress, updates and their rate, the last
 * reward, SAC's α or DDQN's ε, and its agent — train from scratch, save in and load from this
 * browser (IndexedDB), download and load a file. Nothing here throws: failures are reported
 * in the page's error banner (source 'file') and the run goes on.
 */
export function LearningPanel({ store, storage: given }: { readonly store: ServingStore; readonly storage?: AgentStorage }) {
  const lanes = useServing(store, (s) => s.lanes);
  const generation = useServing(store, (s) => s.generation);
  const [storage] = useState<AgentStorage>(() => given ?? createAgentStorage());
  const rates = useUpdateRates(store);
  const [busy, setBusy] = useState(false);
  /** Lanes given an agent by hand, in the generation (run) they were given it. */
  const [loaded, setLoaded] = useState<Readonly<Record<number, { generation: number; what: string }>>>({});
  const learningLanes = lanes.filter((l) => l.learning);
  if (learningLanes.length === 0) return null;

  const actions: LaneActions = {
    busy,
    run: (what, task) => {
      setBusy(true);
      task()
        .catch((error: unknown) => store.getState().reject('file', [{ path: what, message: message(error) }]))
        .finally(() => setBusy(false));
    },
  };
  const onLoaded = (lane: number, what: string) => setLoaded((before) => ({ ...before, [lane]: { generation: store.getState().generation, what } }));

  return (
    <section className="panel learning-panel" aria-labelledby="learning-heading" data-testid="learning.panel">
      <h2 id="learning-heading">Learning</h2>
      <p className="hint">
        These lanes learn online in the simulation worker (TensorFlow.js). A loaded agent acts from the next slot and lasts until the run restarts (Reset, a new
        request rate or scenario).
      </p>
      <ul className="learning-lanes">
        {learningLanes.map((lane) => (
          <LearningLaneCard
            key={`${lane.index}:${lane.scheduler}`}
            store={store}
            lane={lane}
            storage={storage}
            rate={rates[lane.index] ?? null}
            loaded={loaded[lane.index]?.generation === generation}
            onLoaded={onLoaded}
            actions={actions}
          />
        ))}
      </ul>
    </section>
  );
}

/** The warnings that held and no longer do, in words: "backlog grew without bound 1012–1530 s; stalling 1040–1490 s". */
export function pastEpisodes(episodes: readonly HealthEpisode[]): string {
  const what = { backlog: 'backlog grew without bound', stalling: 'stalling', reward: 'reward fell' } as const;
  return episodes
    .filter((e) => e.toS !== null)
    .map((e) => `${what[e.kind]} ${Math.round(e.fromS)}–${Math.round(e.toS!)} s`)
    .join('; ');
}
