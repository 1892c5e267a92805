import type { RateScheduleSpec, ServingScenario } from '../../schema';

/**
 * The same serving scenario with every time `factor` times shorter: the run, the rate
 * schedules' times, the service windows, the tenants, the bursts and the per-phase lane's
 * `phaseS`. Rates, SLOs and the slot stay as they are, so each phase keeps its load and
 * only holds fewer slots. For tests of a scenario's shape that cannot afford its length.
 */
export function compressTime(scenario: ServingScenario, factor: number): ServingScenario {
  const t = (s: number): number => s / factor;
  const rate = (r: RateScheduleSpec): RateScheduleSpec => {
    switch (r.kind) {
      case 'constant':
        return r;
      case 'steps':
        return { ...r, steps: r.steps.map((x) => ({ ...x, fromS: t(x.fromS) })) };
      case 'linear':
        return { ...r, points: r.points.map((x) => ({ ...x, atS: t(x.atS) })) };
      case 'sine':
        return { ...r, periodS: t(r.periodS), phaseS: t(r.phaseS) };
      case 'mmpp':
        return { ...r, meanOnS: t(r.meanOnS), meanOffS: t(r.meanOffS) };
    }
  };
  const v = scenario.serving;
  return {
    ...scenario,
    serving: {
      ...v,
      durationS: t(v.durationS),
      models: v.models.map((m) => ({
        ...m,
        ...(m.rate === undefined ? {} : { rate: rate(m.rate) }),
        ...(m.serviceFromS === undefined ? {} : { serviceFromS: t(m.serviceFromS) }),
        ...(m.serviceToS === undefined || m.serviceToS === null ? {} : { serviceToS: t(m.serviceToS) }),
      })),
      background: v.background.map((b) => ({ ...b, fromS: t(b.fromS), toS: b.toS === null ? null : t(b.toS) })),
      ...(v.bursts === undefined ? {} : { bursts: { ...v.bursts, meanOnS: t(v.bursts.meanOnS) } }),
      lanes: v.lanes.map((l) => (l.params?.['phaseS'] === undefined ? l : { ...l, params: { ...l.params, phaseS: t(l.params['phaseS']) } })),
    },
  };
}
