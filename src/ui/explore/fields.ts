import type { AnyScenario } from '../../scenario/schema';
import type { AxisValue, Sweep, SweepAxis } from '../../scenario/sweep';
import { worldOf } from '../../kit/worlds';

/** A field the Explore view offers as an axis: its path and its value in the scenario. */
export interface SweepableField {
  readonly path: string;
  readonly value: AxisValue;
}

/** Parts of a scenario that are lists of things, not parameters (events are dragged onto the board). */
const SKIPPED = new Set(['events', 'database', 'background', 'lanes', 'modes']);

/**
 * The scenario's own fields a sweep can take as an axis: every number, enum and switch of
 * the world's part, and each lane's scheduler parameters (set or not: a lane without α runs
 * with the default, and sweeping α sets it).
 */
export function sweepableFields(scenario: AnyScenario): SweepableField[] {
  const out: SweepableField[] = [];
  const walk = (value: unknown, path: string) => {
    if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') {
      out.push({ path, value });
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, `${path}[${i}]`));
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) if (!SKIPPED.has(k)) walk(v, `${path}.${k}`);
    }
  };
  // The world's part of the scenario is its body, under the world's id (`World.id`).
  const world = worldOf(scenario);
  const body = world.id;
  walk((scenario as unknown as Record<string, unknown>)[body], body);
  world.lanes(scenario).forEach((lane, i) => {
    for (const p of world.parameters(lane.scheduler)) out.push({ path: `${body}.lanes[${i}].params.${p.name}`, value: (lane.params?.[p.name] as AxisValue | undefined) ?? p.default });
  });
  return out;
}

/**
 * Parses what a person types as an axis's values: a list `2, 10, 100` (numbers, true/false,
 * or words such as `serial, free`), or a range `from..to:step` such as `1..30:5`.
 */
export function parseAxisValues(path: string, text: string): SweepAxis {
  const range = /^\s*(-?[\d.]+)\s*\.\.\s*(-?[\d.]+)\s*(?::\s*([\d.]+))?\s*$/.exec(text);
  if (range) return { path, range: { from: Number(range[1]), to: Number(range[2]), step: Number(range[3] ?? 1) } };
  const values = text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '')
    .map((t): AxisValue => (t === 'true' ? true : t === 'false' ? false : /^-?\d+(\.\d+)?(e-?\d+)?$/i.test(t) ? Number(t) : t));
  return { path, values };
}

/** The text of an axis's values as `parseAxisValues` reads it. */
export function axisText(axis: SweepAxis): string {
  if (axis.range) return `${axis.range.from}..${axis.range.to}:${axis.range.step}`;
  return (axis.values ?? []).join(', ');
}

/** The sweep the view starts from: the scenario's own, or ODIN α × detection threshold (pipeline) / rate (serving). */
export function defaultSweep(scenario: AnyScenario): Sweep {
  if (scenario.sweep !== undefined) return scenario.sweep;
  return worldOf(scenario).defaultSweep(scenario);
}
