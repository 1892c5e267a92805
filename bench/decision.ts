import { createRng } from '../src/engine/rng';
import { DEFAULT_DDQN_CONFIG, Ddqn } from '../src/worlds/serving/agents/ddqn';
import { ACTION_COUNT, STATE_SIZE } from '../src/worlds/serving/agents/features';
import { useHostDecisions } from '../src/worlds/serving/agents/hostPolicy';
import type { Learner } from '../src/worlds/serving/agents/learner';
import { DEFAULT_PPO_CONFIG, Ppo } from '../src/worlds/serving/agents/ppo';
import { MASKED_LOGIT } from '../src/worlds/serving/agents/replay';
import { DEFAULT_SAC_CONFIG, DiscreteSac } from '../src/worlds/serving/agents/sac';
import type { Tf } from '../src/lib/tf';
import type { BenchRow } from './row';

/**
 * A decision of each learner (issue 38 part 1): `act` on the host (hostPolicy.ts) against the
 * same call through tfjs (the path before), same learner, same states, in this run. One row
 * per learner and per row count: 1 (under Eq. 1's per-model slots a decision is most often
 * one model's) and 6 (the fixed slot: every model at once). Median of `ROUNDS` rounds of
 * `CALLS` calls each, the two paths alternating, CPU µs per call (the process's user + system time). SAC and PPO sample (exploring), DDQN is greedy (its exploring
 * rows need no network). The networks are the defaults at their initial weights; the cost
 * does not depend on the values.
 */
const CALLS = 400;
const ROUNDS = 7;

export function benchDecisions(tf: Tf, rows: BenchRow[]): Record<string, unknown> {
  const learners: [string, Learner, boolean][] = [
    ['BCEdge (SAC)', new DiscreteSac(tf, STATE_SIZE, ACTION_COUNT, DEFAULT_SAC_CONFIG, createRng(1, 1)), true],
    ['PPO', new Ppo(tf, STATE_SIZE, ACTION_COUNT, DEFAULT_PPO_CONFIG, createRng(1, 2)), true],
    ['DDQN', new Ddqn(tf, STATE_SIZE, ACTION_COUNT, DEFAULT_DDQN_CONFIG, createRng(1, 3)), false],
  ];
  const details: Record<string, unknown> = {};
  for (const count of [1, 6]) {
    const input = createRng(38, count);
    const states = Float32Array.from({ length: count * STATE_SIZE }, () => input.nextFloat() * 2 - 1);
    const maskBias = Float32Array.from({ length: count * ACTION_COUNT }, (_, i) => (i % 9 === 4 ? MASKED_LOGIT : 0));
    for (const [name, learner, explore] of learners) {
      // The two paths alternate round by round, so that the machine's load falls on both alike.
      // CPU time of this process, not wall time: on a shared machine the wall clock also counts
      // the time other processes hold the core, which is not the decision's cost.
      const round = (host: boolean): number => {
        useHostDecisions(host);
        const t0 = process.cpuUsage();
        for (let i = 0; i < CALLS; i++) learner.act(states, maskBias, count, explore);
        const t = process.cpuUsage(t0);
        return (t.user + t.system) / CALLS;
      };
      round(false);
      round(true);
      const tfSamples: number[] = [];
      const hostSamples: number[] = [];
      for (let k = 0; k < ROUNDS; k++) {
        tfSamples.push(round(false));
        hostSamples.push(round(true));
      }
      const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const tfUs = median(tfSamples);
      const hostUs = median(hostSamples);
      useHostDecisions(true);
      const ratio = tfUs / hostUs;
      rows.push({
        name: `decision: ${name}, ${count} row${count > 1 ? 's' : ''}, on the host`,
        value: hostUs,
        unit: 'µs',
        target: '≥ 20× faster than tfjs',
        met: ratio >= 20,
        baseline: tfUs,
        ratio,
        note: 'baseline: the same act through tfjs (wasm), same learner and states, this run; CPU time per call, median of alternating rounds',
      });
      details[`${name}/${count}`] = { hostUs, tfUs, ratio };
    }
  }
  for (const [, learner] of learners) learner.dispose();
  return details;
}
