import type { RealReport } from './realRun';
import type { Estimate, Verdict } from './verdict';

/**
 * The lab's own claim beside the papers' (ARCHITECTURE §4a, the real backend of §2): "the
 * simulated system predicts a real pipeline on this machine". ODIN is evaluated "in a
 * simulated system" built from a layer database measured on a real platform (§3.3, §4.1);
 * `interference-lab real` runs the same lanes for real on this machine's cores and sets each
 * beside its simulation on a database measured here, and this module turns that report into a
 * row of the claims report. The row is of one machine and one run (no seeds, no interval):
 * its provenance says which.
 *
 * The rule, the lab's choice (neither paper states a fidelity): the claim **holds** when the
 * simulation's throughput is within `REAL_CLAIM_RULE.tolerancePct` of the measured one on
 * every lane *and* the sign of ODIN against LLS agrees (when both ran); **partly** when one of
 * the two holds; **fails** otherwise. Throughput decides because it is what ODIN optimises
 * (§3.2); the latencies are in the row's lanes for the reader.
 */
export const REAL_CLAIM_RULE = { tolerancePct: 20 } as const;

export const REAL_CLAIM_ID = 'lab-real-pipeline';

/** One lane of the row: measured beside simulated (the scenario's trial-cost reading). */
export interface MachineClaimLane {
  readonly label: string;
  readonly scheduler: string;
  readonly measuredQps: number;
  readonly simulatedQps: number;
  /** Signed, % of the measured. */
  readonly throughputErrorPct: number;
  readonly latencyMeanErrorPct: number;
  readonly latencyP99ErrorPct: number;
  readonly moves: number;
  /** Mean wall time of a real move, ms (what the simulation does not model). */
  readonly moveMeanMs: number;
  readonly closestReading: string;
}

/** Where, when and how the row was measured. */
export interface MachineClaimProvenance {
  readonly machine: string;
  readonly date: string;
  readonly command: string;
  readonly commit: string;
  readonly durationS: number;
  readonly setting: string;
}

export interface MachineClaimRow {
  readonly id: string;
  readonly where: string;
  readonly quote: string;
  readonly labNumber: string;
  /** Mean absolute throughput error over the lanes, %, of the one run (seeds 1, no interval). */
  readonly estimate: Estimate | null;
  readonly verdict: Verdict;
  readonly reason: string;
  readonly lanes: readonly MachineClaimLane[];
  /** ODIN's throughput against LLS's, % — measured and simulated (null unless both ran). */
  readonly odinVsLls: { readonly measuredPct: number; readonly simulatedPct: number; readonly agrees: boolean } | null;
  readonly provenance: MachineClaimProvenance;
}

const QUOTE =
  'In our evaluation, we use simulation to be able to apply ODIN on any type and size of the underlying system. We, therefore, replace online monitoring with an offline database.';

const pct = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(1)} %`;

/** The row a real run gives (`provenance` from the command that ran it). */
export function machineClaimRow(report: RealReport, provenance: Omit<MachineClaimProvenance, 'machine' | 'date' | 'setting'>): MachineClaimRow {
  const lanes = report.lanes.map(
    (l): MachineClaimLane => ({
      label: l.label,
      scheduler: l.scheduler,
      measuredQps: l.measured.throughputQps,
      simulatedQps: l.simulated.throughputQps,
      throughputErrorPct: l.error.throughputQps,
      latencyMeanErrorPct: l.error.latencyMeanMs,
      latencyP99ErrorPct: l.error.latencyP99Ms,
      moves: l.measured.reconfigurations.length,
      moveMeanMs: l.measured.reconfigurationMeanMs,
      closestReading: l.closestReading,
    }),
  );
  const errors = lanes.map((l) => Math.abs(l.throughputErrorPct)).filter(Number.isFinite);
  const mape = errors.length === 0 ? null : errors.reduce((a, b) => a + b, 0) / errors.length;
  const within = errors.length === lanes.length && errors.length > 0 && errors.every((e) => e <= REAL_CLAIM_RULE.tolerancePct);
  const sign = report.odinVsLls;
  const parts = [within, ...(sign === null ? [] : [sign.agrees])];
  const verdict: Verdict = mape === null ? 'fails' : parts.every(Boolean) ? 'holds' : parts.some(Boolean) ? 'partly' : 'fails';
  const worst = lanes.reduce<MachineClaimLane | null>((w, l) => (w === null || Math.abs(l.throughputErrorPct) > Math.abs(w.throughputErrorPct) ? l : w), null);
  const reasonParts = [
    worst === null ? 'no lane ran' : `the simulation's throughput is ${within ? 'within' : 'off by more than'} ${REAL_CLAIM_RULE.tolerancePct} % on ${within ? 'every lane' : `${worst.label} (${pct(worst.throughputErrorPct)} of the measured)`}`,
    ...(sign === null ? [] : [`ODIN against LLS: measured ${pct(sign.measuredPct)}, simulated ${pct(sign.simulatedPct)}, the sign ${sign.agrees ? 'agrees' : 'does not agree'}`]),
    `closest trial-cost reading: ${report.closestReading}`,
  ];
  const s = report.scenario;
  return {
    id: REAL_CLAIM_ID,
    where: '§3.3, §4.1',
    quote: QUOTE,
    labNumber: 'mean |simulated − measured| throughput over the lanes, % of the measured, one run on this machine',
    estimate: mape === null ? null : { mean: mape, halfWidth95: 0, seeds: 1 },
    verdict,
    reason: `${reasonParts.join('; ')}.`,
    lanes,
    odinVsLls: sign,
    provenance: {
      ...provenance,
      machine: `${report.machine.runtime}; ${report.machine.mapping.text}`,
      date: report.machine.date,
      setting: `${s.model} at ${s.inputSize} px on ${s.executionPlaces} execution places, ${s.queries} queries per lane, buffer ${s.bufferCapacity}, seed ${s.seed}; database ${report.database.source === 'measured' ? 'measured in the same run' : 'read from a file'}`,
    },
  };
}
