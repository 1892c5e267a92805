import type { ScaleLinear } from 'd3';
import type { ServingScenario } from '../schema';
import { THEME, type G } from '../../../charts/runtime';

/**
 * The known schedule of a serving scenario on a chart's time axis (ARCHITECTURE §3): tenants and
 * services as shaded bands while they are present, and the times where a model's rate
 * schedule changes regime (steps, ramp corners) as thin vertical lines. A self-contained
 * overlay: a chart with a time axis calls `drawScheduleOverlay` with its x scale.
 */
export interface ScheduleMarks {
  /** Intervals when something is on the device: a tenant, or a model's service window. */
  readonly bands: readonly { readonly key: string; readonly fromS: number; readonly toS: number; readonly label: string; readonly kind: 'tenant' | 'service' }[];
  /** Times where a rate schedule changes regime. */
  readonly boundaries: readonly { readonly key: string; readonly atS: number; readonly label: string }[];
}

export const NO_SCHEDULE: ScheduleMarks = { bands: [], boundaries: [] };

/** The marks of a scenario's schedule over [0, durationS]. */
export function scheduleMarks(serving: ServingScenario['serving']): ScheduleMarks {
  const end = serving.durationS;
  const bands: ScheduleMarks['bands'][number][] = [];
  serving.background.forEach((b, i) => {
    if (b.fromS >= end) return;
    const what = b.label ?? 'tenant';
    bands.push({ key: `tenant-${i}`, fromS: b.fromS, toS: Math.min(end, b.toS ?? end), label: `${what}: ${Math.round(100 * b.intensity)} % GPU${b.memoryMb ? `, ${formatMb(b.memoryMb)}` : ''}`, kind: 'tenant' });
  });
  const boundaries: ScheduleMarks['boundaries'][number][] = [];
  for (const m of serving.models) {
    const from = m.serviceFromS ?? 0;
    const to = m.serviceToS ?? null;
    if (from > 0 || to !== null) bands.push({ key: `service-${m.model}`, fromS: from, toS: Math.min(end, to ?? end), label: `${m.model} in service`, kind: 'service' });
    const r = m.rate;
    if (r === undefined) continue;
    const times = r.kind === 'steps' ? r.steps.map((s) => [s.fromS, s.rateRps] as const) : r.kind === 'linear' ? r.points.map((p) => [p.atS, p.rateRps] as const) : [];
    for (const [atS, rateRps] of times) {
      if (atS > 0 && atS < end) boundaries.push({ key: `${m.model}-${atS}`, atS, label: `${m.model} ${rateRps} rps from ${atS} s` });
    }
  }
  return { bands, boundaries };
}

function formatMb(mb: number): string {
  return mb >= 1000 ? `${(mb / 1000).toFixed(1)} GB` : `${Math.round(mb)} MB`;
}

/** Tenant bands in a warm grey, service windows outlined; boundaries dotted. */
const TENANT_FILL = 'rgba(120, 120, 120, 0.16)';

/** Draws `marks` into `g` (a group under the chart's marks) over a plot of `innerHeight` px. */
export function drawScheduleOverlay(g: G, x: ScaleLinear<number, number>, innerHeight: number, marks: ScheduleMarks): void {
  const [d0, d1] = x.domain() as [number, number];
  const visible = marks.bands.filter((b) => b.toS > d0 && b.fromS < d1);
  g.selectAll<SVGRectElement, (typeof visible)[number]>('rect')
    .data(visible, (b) => b.key)
    .join((enter) => {
      const r = enter.append('rect').attr('class', (b) => `schedule-band schedule-${b.kind}`);
      r.append('title');
      return r;
    })
    .attr('x', (b) => x(Math.max(d0, b.fromS)))
    .attr('width', (b) => Math.max(0, x(Math.min(d1, b.toS)) - x(Math.max(d0, b.fromS))))
    .attr('y', 0)
    .attr('height', innerHeight)
    .attr('fill', (b) => (b.kind === 'tenant' ? TENANT_FILL : 'none'))
    .attr('stroke', (b) => (b.kind === 'service' ? THEME.text : 'none'))
    .attr('stroke-dasharray', '2 3')
    .attr('stroke-opacity', 0.5)
    .call((r) => r.select('title').text((b) => `${b.label}, ${b.fromS}–${b.toS} s`));
  const lines = marks.boundaries.filter((b) => b.atS > d0 && b.atS < d1);
  g.selectAll<SVGLineElement, (typeof lines)[number]>('line')
    .data(lines, (b) => b.key)
    .join((enter) => {
      const l = enter.append('line').attr('class', 'schedule-boundary');
      l.append('title');
      return l;
    })
    .attr('x1', (b) => x(b.atS))
    .attr('x2', (b) => x(b.atS))
    .attr('y1', 0)
    .attr('y2', innerHeight)
    .attr('stroke', THEME.text)
    .attr('stroke-opacity', 0.35)
    .attr('stroke-dasharray', '1 3')
    .call((l) => l.select('title').text((b) => b.label));
  g.attr('data-bands', visible.length).attr('data-boundaries', lines.length);
}
