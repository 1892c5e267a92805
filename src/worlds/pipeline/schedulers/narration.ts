/**
 * What the teaching view says at each step of a rebalancing: one sentence in plain words on
 * what the step does and why, and the watch list of live variables in the paper's notation.
 * Stages are numbered from 1, as the board numbers its execution places; the algorithms
 * count from 0 inside. The page loads this module when a step is first shown (ARCHITECTURE §7a′).
 */
import type { LlsStep } from './lls';
import type { OdinStep } from './odin';
import type { AlgorithmStep } from './algorithmTrace';

const ms = (v: number): string => `${round(v)} ms`;
const qps = (bottleneckMs: number): string => `${round(1000 / bottleneckMs)} q/s`;
const config = (c: readonly number[]): string => `[${c.join(', ')}]`;
const stage = (i: number): string => `stage ${i + 1}`;
const Stage = (i: number): string => `Stage ${i + 1}`;

/** A number for people: at most 2 decimals, no trailing zeros. */
export function round(v: number): string {
  return String(Math.round(v * 100) / 100);
}

/** One sentence, in plain words, saying what ODIN does at this step and why. */
export function narrateOdin(s: OdinStep): string {
  const n = s.stageTimesMs.length;
  const a = s.affected;
  const l = s.lightest;
  switch (s.line) {
    case 2:
      return `The monitor saw the slowest stage change, so ODIN starts: the pipeline runs at T = ${qps(s.bottleneckMs)}, set by its slowest stage (${ms(s.bottleneckMs)}).`;
    case 3:
      return `The configuration in force, C = ${config(s.configuration)}, is the best known so far (C_opt).`;
    case 4:
      return 'No trial has failed yet, so the counter of unsuccessful trials starts at γ = 0.';
    case 5:
      return `γ = ${s.gamma} is below α = ${s.alpha}, so ODIN tries another configuration.`;
    case 6:
      return `${Stage(a!)} is the slowest (${ms(s.stageTimesMs[a!]!)}), so it is the affected stage.`;
    case 7:
      return s.gamma === 0
        ? 'γ = 0: a fresh start, and ODIN does not know which end of the affected stage suffers, so it takes a layer off both ends.'
        : `γ = ${s.gamma}: not a fresh start, so ODIN skips taking layers off both ends.`;
    case 8:
      return a! + 1 < n
        ? `The affected stage's last layer goes to the next stage, ${stage(a! + 1)}: C = ${config(s.configuration)}.`
        : `${Stage(a!)} is the last stage: there is no next stage to take its last layer, so nothing moves here (our reading of the pipeline's edge).`;
    case 9:
      return a! > 0
        ? `The affected stage's first layer goes to the previous stage, ${stage(a! - 1)}: C = ${config(s.configuration)}.`
        : `${Stage(a!)} is the first stage: there is no previous stage to take its first layer, so nothing moves here (our reading of the pipeline's edge).`;
    case 10:
      return `In counts, line 10 is the other half of lines 8–9: the affected stage now holds ${s.configuration[a!]} layers.`;
    case 12:
      return a! === 0 ? 'There is no stage left of the affected stage: S_left = 0 ms.' : `The stages left of the affected stage take S_left = ${ms(s.sLeftMs!)} together.`;
    case 13:
      return a! === n - 1 ? 'There is no stage right of the affected stage: S_right = 0 ms.' : `The stages right of the affected stage take S_right = ${ms(s.sRightMs!)} together.`;
    case 14:
      return `Compare the two sides: S_left = ${ms(s.sLeftMs!)} against S_right = ${ms(s.sRightMs!)}; work moves toward the lighter side.`;
    case 15:
      return s.sLeftMs! < s.sRightMs!
        ? `The left side is lighter, so ODIN moves work to the left.`
        : `The right side would get the work, but ${stage(a!)} is the last stage, so ODIN moves work to the left (our reading of the pipeline's edge).`;
    case 17:
      return s.sLeftMs! < s.sRightMs!
        ? `The left side would get the work, but ${stage(a!)} is the first stage, so ODIN moves work to the right (our reading of the pipeline's edge).`
        : s.sLeftMs === s.sRightMs
          ? 'Both sides weigh the same, and the pseudocode sends ties to the right.'
          : 'The right side is lighter, so ODIN moves work to the right.';
    case 19:
      return l === null ? 'There is no stage on that side.' : `${Stage(l)} is the lightest stage on the ${s.direction} (${ms(s.stageTimesMs[l]!)}), so it is PS_lightest.`;
    case 20:
      return `One more layer comes off the affected stage, ${stage(a!)}…`;
    case 21:
      return l === null ? 'Nothing to receive it.' : `…and goes to ${stage(l)}${Math.abs(l - a!) > 1 ? ' (the stages in between shift by one layer)' : ''}: the trial configuration is C = ${config(s.configuration)}.`;
    case 22:
      return `One query runs on C = ${config(s.configuration)} to measure it: its slowest stage takes ${ms(s.newBottleneckMs!)}, T_new = ${qps(s.newBottleneckMs!)}.`;
    case 23:
      return `Is T_new = ${qps(s.newBottleneckMs!)} lower than T = ${qps(s.bottleneckMs)}?`;
    case 24:
      return `Yes: the trial made the pipeline slower, so it counts as unsuccessful: γ = ${s.gamma}.`;
    case 25:
      return 'No, and it is not higher either: T_new equals T, a plateau.';
    case 26:
      return `To get off the plateau, ODIN deliberately moves one more layer off ${stage(a!)}…`;
    case 27:
      return `…to ${stage(l!)}: C = ${config(s.configuration)}.`;
    case 28:
      return `The plateau counts as unsuccessful: γ = ${s.gamma}.`;
    case 29:
      return `No: T_new is higher than T, the trial is better than anything before.`;
    case 30:
      return 'A success resets the counter: γ = 0.';
    case 31:
      return `The new throughput is the one to beat: T = ${qps(s.bottleneckMs)}.`;
    case 32:
      return `ODIN remembers C_opt = ${config(s.best)} as the best configuration so far.`;
    case 35:
      return `γ reached α = ${s.alpha}: ODIN stops and installs the best configuration it found, C_opt = ${config(s.best)}.`;
    default:
      return `Line ${s.line}.`;
  }
}

/** One sentence, in plain words, saying what LLS does at this step and why. */
export function narrateLls(s: LlsStep): string {
  const most = s.most;
  const least = s.least;
  switch (s.line) {
    case 1:
      return `The monitor saw the slowest stage change, so LLS starts: T = ${qps(s.bottleneckMs)} (slowest stage ${ms(s.bottleneckMs)}).`;
    case 2:
      return `Move ${s.move}: LLS makes at most L moves, each measured by one query.`;
    case 3:
      return `Each stage's waiting time from the formula w_i = w_{i−1} + t_{i−1} − t_i: w = [${s.waitMs.map(round).join(', ')}] ms.`;
    case 4:
      return `Utilization υ_i = 1 − w_i / (w_i + t_i): υ = [${s.utilization.map(round).join(', ')}].`;
    case 5:
      return `${Stage(most!)} is the most utilized and ${stage(least!)} the least utilized.`;
    case 6:
      return most === least ? 'They are the same stage: nothing to move, LLS stops.' : s.configuration[most!] === 0 ? `${Stage(most!)} holds no layer: nothing to move, LLS stops.` : 'They differ, so LLS moves a layer.';
    case 7:
      return `LLS tries one layer moved from ${stage(most!)} to ${stage(least!)}: C_trial = ${config(s.trialConfiguration ?? s.configuration)}.`;
    case 8:
      return `One query runs on C_trial: its slowest stage takes ${ms(s.newBottleneckMs!)}, T_new = ${qps(s.newBottleneckMs!)}.`;
    case 9:
      return s.trialConfiguration !== null && s.newBottleneckMs! > s.bottleneckMs
        ? `T_new is lower than T = ${qps(s.bottleneckMs)}: the throughput starts decreasing, so LLS stops and keeps C.`
        : `T_new is not lower than T: LLS keeps the move and goes on.`;
    case 10:
      return `C = ${config(s.configuration)} and T = ${qps(s.bottleneckMs)} from now on.`;
    case 12:
      return `LLS installs C = ${config(s.configuration)}.`;
    default:
      return `Line ${s.line}.`;
  }
}

/** The narration of any algorithm's step. */
export function narrate(step: AlgorithmStep): string {
  return step.algorithm === 'odin' ? narrateOdin(step) : narrateLls(step);
}

/** One row of the watch list: a variable's name in the paper's notation and its value now. */
export interface WatchRow {
  readonly name: string;
  readonly value: string;
  /** A stable key for tests: `gamma`, `affected`, `direction`, … */
  readonly key: string;
}

const none = '—';

/** The live variables of a step, as the watch list shows them. */
export function watchList(step: AlgorithmStep): readonly WatchRow[] {
  if (step.algorithm === 'odin') {
    return [
      { key: 'C', name: 'C', value: config(step.configuration) },
      { key: 'tC', name: 't(C)', value: `[${step.stageTimesMs.map(round).join(', ')}] ms` },
      { key: 'T', name: 'T', value: `${qps(step.bottleneckMs)} (${ms(step.bottleneckMs)})` },
      { key: 'Tnew', name: 'T_new', value: step.newBottleneckMs === null ? none : `${qps(step.newBottleneckMs)} (${ms(step.newBottleneckMs)})` },
      { key: 'gamma', name: 'γ', value: String(step.gamma) },
      { key: 'alpha', name: 'α', value: String(step.alpha) },
      { key: 'affected', name: 'PS_affected', value: step.affected === null ? none : `stage ${step.affected + 1}` },
      { key: 'sLeft', name: 'S_left', value: step.sLeftMs === null ? none : ms(step.sLeftMs) },
      { key: 'sRight', name: 'S_right', value: step.sRightMs === null ? none : ms(step.sRightMs) },
      { key: 'direction', name: 'direction', value: step.direction ?? none },
      { key: 'lightest', name: 'PS_lightest', value: step.lightest === null ? none : `stage ${step.lightest + 1}` },
      { key: 'best', name: 'C_opt', value: config(step.best) },
    ];
  }
  return [
    { key: 'C', name: 'C', value: config(step.configuration) },
    { key: 'Ctrial', name: 'C_trial', value: step.trialConfiguration === null ? none : config(step.trialConfiguration) },
    { key: 'tC', name: 't(C)', value: `[${step.stageTimesMs.map(round).join(', ')}] ms` },
    ...step.waitMs.map((w, i) => ({ key: `w${i + 1}`, name: `w_${i + 1}, υ_${i + 1}`, value: `${ms(w)}, ${round(step.utilization[i]!)}` })),
    { key: 'most', name: 'PS_most', value: step.most === null ? none : `stage ${step.most + 1}` },
    { key: 'least', name: 'PS_least', value: step.least === null ? none : `stage ${step.least + 1}` },
    { key: 'T', name: 'T', value: `${qps(step.bottleneckMs)} (${ms(step.bottleneckMs)})` },
    { key: 'Tnew', name: 'T_new', value: step.newBottleneckMs === null ? none : `${qps(step.newBottleneckMs)} (${ms(step.newBottleneckMs)})` },
    { key: 'move', name: 'move', value: String(step.move) },
  ];
}
