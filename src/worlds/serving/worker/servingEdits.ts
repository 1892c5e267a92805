/**
 * The serving world's live edits: what they are, how one applies to a lane (as made, or again
 * by a replay at its time), the scenario they fold into, the tenants they drop and the time
 * line's markers they show.
 */
import type { ModelAction } from '../engine/scheduler';
import { DiscreteSac } from '../agents/sac';
import type { ServingScenario } from '../schema';
import { servingLaneLabel, type ServingSchedulerId } from '../schedulers/registry';
import type { BackgroundView, ServingMarker } from './servingProtocol';
import { modelHooks, type Lane } from './servingLanes';

/** A live change, kept so that a replay reproduces it at the same simulated time. */
export type ServingEdit =
  | { readonly kind: 'config'; readonly atMs: number; readonly lane: number; readonly model: number; readonly action: ModelAction }
  | { kind: 'background'; readonly atMs: number; readonly id: number; readonly intensity: number; readonly memoryMb: number; toMs: number | null }
  /** An agent loaded into a learning lane (from a file or the browser's storage). */
  | { readonly kind: 'agent'; readonly atMs: number; readonly lane: number; readonly file: unknown }
  /** One SAC update applied by the walkthrough (it changes the learner, so a replay applies it too). */
  | { readonly kind: 'explain'; readonly atMs: number; readonly lane: number };

/** Configuration changes the time line shows at most (the newest; slider drags make many). */
const TIMELINE_CONFIG_MARKERS = 500;

/** A live edit on one lane (those of another lane leave it as it is); `models` are the scenario's. */
export function applyEditToLane(lane: Lane, c: ServingEdit, models: ServingScenario['serving']['models']): void {
  if (c.kind === 'background') {
    lane.run.addBackground({ fromMs: c.atMs, toMs: c.toMs, intensity: c.intensity, memoryMb: c.memoryMb });
    return;
  }
  if (c.lane !== lane.info.index) return;
  if (c.kind === 'agent') {
    // An agent loaded into a lane is deployed on every device copy of it.
    for (const learning of lane.learnings) learning.importAgent(c.file);
  } else if (c.kind === 'explain') {
    const learner = lane.learning?.scheduler.learner;
    if (learner instanceof DiscreteSac) learner.explainUpdate();
  } else {
    const { hooks, index } = modelHooks(lane, c.model);
    hooks.overrides![index] = { ...c.action };
    const id = models[c.model]!.model;
    const params = { ...lane.info.params, [`batchSize.${id}`]: c.action.batchSize, [`instances.${id}`]: c.action.instances };
    // The title follows (a model set apart by the per-model sliders is named), as a link reopened with these settings names it.
    lane.info = { ...lane.info, params, label: servingLaneLabel(lane.info.scheduler as ServingSchedulerId, params) };
  }
}

/** `base` with the live edits folded in: backgrounds dropped live and per-model settings. */
export function scenarioWithEdits(base: ServingScenario, edits: readonly ServingEdit[]): ServingScenario {
  const background = [...base.serving.background];
  const lanes = base.serving.lanes.map((l) => ({ ...l, params: { ...l.params } }));
  const models = base.serving.models;
  for (const c of edits) {
    if (c.kind === 'agent' || c.kind === 'explain') continue;
    if (c.kind === 'background') {
      background.push({ fromS: c.atMs / 1000, toS: c.toMs === null ? null : c.toMs / 1000, intensity: c.intensity, memoryMb: c.memoryMb });
    } else {
      const params = lanes[c.lane]!.params;
      const id = models[c.model]!.model;
      params[`batchSize.${id}`] = c.action.batchSize;
      params[`instances.${id}`] = c.action.instances;
    }
  }
  return { ...base, serving: { ...base.serving, background, lanes } };
}

/** The backgrounds `scenario` scripts, with ids from 1. */
export function scriptedBackgrounds(scenario: ServingScenario): BackgroundView[] {
  return scenario.serving.background.map((b, i) => ({
    id: i + 1,
    intensity: b.intensity,
    memoryMb: b.memoryMb ?? 0,
    fromMs: b.fromS * 1000,
    toMs: b.toS === null ? null : b.toS * 1000,
  }));
}

/** Every background: the scenario's (`scripted`) and those dropped live. */
export function allBackgrounds(scripted: readonly BackgroundView[], edits: readonly ServingEdit[]): BackgroundView[] {
  const live = edits.flatMap((c) => (c.kind === 'background' ? [{ id: c.id, intensity: c.intensity, memoryMb: c.memoryMb, fromMs: c.atMs, toMs: c.toMs }] : []));
  return [...scripted, ...live];
}

/** The time line's markers: tenants arriving and leaving, configuration changes (fixed lanes), agents loaded. */
export function timelineMarkers(backgrounds: readonly BackgroundView[], edits: readonly ServingEdit[], models: ServingScenario['serving']['models']): ServingMarker[] {
  const markers: ServingMarker[] = [];
  for (const b of backgrounds) {
    markers.push({ timeMs: b.fromMs, kind: 'tenant-on', lane: -1, background: b.id });
    if (b.toMs !== null) markers.push({ timeMs: b.toMs, kind: 'tenant-off', lane: -1, background: b.id });
  }
  const configs = edits.filter((c) => c.kind === 'config');
  for (const c of configs.slice(-TIMELINE_CONFIG_MARKERS)) {
    markers.push({ timeMs: c.atMs, kind: 'config', lane: c.lane, model: models[c.model]!.model, batchSize: c.action.batchSize, instances: c.action.instances });
  }
  for (const c of edits) if (c.kind === 'agent') markers.push({ timeMs: c.atMs, kind: 'agent', lane: c.lane });
  return markers.sort((a, b) => a.timeMs - b.timeMs);
}
