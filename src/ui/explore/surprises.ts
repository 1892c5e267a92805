import type { ExploreData } from '../../charts/exploreData';

/**
 * Explore results that contradict what a lesson or a paper teaches, and the claim of the
 * Claims view that explains them (issue 37: "a line under a result that contradicts a lesson
 * pointing to the claim that explains it"). Pure: from the Explore view's lines (one axis).
 */

/** A line under the chart: what is surprising, why, and the claim that explains it. */
export interface Surprise {
  readonly key: string;
  readonly text: string;
  /** The claim's id in `scenario/claims.ts` (the Claims view's row). */
  readonly claimId: string;
  /** How the line names the claim: its paper and where. */
  readonly claimName: string;
}

/** What the finder needs besides the lines: each lane's scheduler and the swept field (their ids and paths tell the world). */
export interface SurpriseContext {
  readonly schedulers: readonly string[];
  readonly axisPath: string;
  readonly axisName: string;
}

/** The claims the lines point at (their ids are checked against the claims' registry by the tests). */
export const SURPRISE_CLAIMS = {
  odinThroughput: { id: 'odin-fig6-throughput', name: 'ODIN Fig. 6, §4.2' },
  servingRate: { id: 'bcedge-fig15-40rps', name: 'BCEdge Fig. 15, §V-D' },
} as const;

/** The means of a line that have a value, with their index. */
function measured(line: ExploreData['lines'][number]): Map<number, number> {
  const out = new Map<number, number>();
  for (const p of line.points) if (p.seeds > 0 && Number.isFinite(p.mean)) out.set(p.i, p.mean);
  return out;
}

/**
 * The surprises in `data`: (1) an ODIN lane whose throughput is below a
 * Static lane's at every value of the axis (a lesson shows ODIN recovering what Static loses);
 * (2) a serving lane whose SLO violations fall as the request rate rises (the paper's
 * Fig. 15 has them rise). Each needs at least two values measured.
 */
export function findSurprises(data: ExploreData, context: SurpriseContext): Surprise[] {
  const out: Surprise[] = [];
  const lineOf = (scheduler: string) => data.lines.filter((l) => context.schedulers[l.lane] === scheduler);
  if (/throughput/i.test(data.metric)) {
    for (const odin of lineOf('odin')) {
      for (const stat of lineOf('static')) {
        const a = measured(odin);
        const b = measured(stat);
        const shared = [...a.keys()].filter((i) => b.has(i));
        if (shared.length < 2 || !shared.every((i) => a.get(i)! < b.get(i)!)) continue;
        out.push({
          key: `odin-static-${odin.lane}-${stat.lane}`,
          text: `${odin.label} is below ${stat.label} at every ${context.axisName} measured. Each rebalancing runs its trial configurations one query at a time with the pipeline drained (ODIN §4.2, the lab's default reading of the trial cost; the paper counts about 4 such queries a rebalancing at α = 2 and 12 at α = 10), and here that costs more throughput than the better configuration wins back. The claim that ODIN beats LLS on throughput fails in the lab for this reason; with pipelined trials (Assumptions › trial cost) it flips.`,
          claimId: SURPRISE_CLAIMS.odinThroughput.id,
          claimName: SURPRISE_CLAIMS.odinThroughput.name,
        });
      }
    }
  }
  if (data.metric === 'sloViolationPct' && /rateRps$/.test(context.axisPath)) {
    const falling = data.lines.filter((line) => {
      const m = [...measured(line)].sort(([i], [j]) => i - j);
      if (m.length < 2) return false;
      const first = m[0]![1];
      const last = m.at(-1)![1];
      // Falling by at least a percentage point and a tenth: not a seed's wobble.
      return last < first - 1 && last < 0.9 * first;
    });
    if (falling.length > 0) {
      out.push({
        key: 'serving-rate',
        text: `SLO violations fall as the request rate rises for ${falling.map((l) => l.label).join(', ')}. Under the paper's batching reading a batch of b forms before it runs (BCEdge §III-A1): at a low rate its requests wait long for the others, up to the last moment their SLO allows, and some miss it; faster arrivals fill batches sooner, until the device saturates. Assumptions › Batching: "b is a cap" removes the wait. Fig. 15 of the paper has violations rising with the rate.`,
        claimId: SURPRISE_CLAIMS.servingRate.id,
        claimName: SURPRISE_CLAIMS.servingRate.name,
      });
    }
  }
  return out;
}
