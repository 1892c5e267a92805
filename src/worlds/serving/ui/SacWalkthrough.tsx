import { useState, type ReactNode } from 'react';
import type { SacUpdateExplained } from '../agents/sac';
import { BATCH_SIZES, INSTANCE_COUNTS } from '../engine/scheduler';
import type { ServingStore } from '../store/servingStore';
import { changeText } from './changePrecision';

/** (b, m_c) of a joint action index a = i_b · 8 + i_mc. */
function action(a: number): string {
  return `(b=${BATCH_SIZES[Math.floor(a / INSTANCE_COUNTS.length)]}, m_c=${INSTANCE_COUNTS[a % INSTANCE_COUNTS.length]})`;
}

const f = (x: number, digits = 3) => (Number.isFinite(x) ? x.toFixed(digits) : '–');

/** The four steps of one update, each a title, the paper's equation and what the numbers say. */
function steps(u: SacUpdateExplained): { title: string; equation: string; body: ReactNode }[] {
  const first = u.samples[0];
  const alpha = changeText(u.alphaBefore, u.alphaAfter, 5);
  return [
    {
      title: '1. Sample a minibatch from the replay buffer',
      equation: `${u.batchSize} transitions (s, a, r, s′) drawn uniformly from D (Algorithm 1, line 12)`,
      body: (
        <table className="walkthrough-table" data-testid="walkthrough.batch">
          <caption>The first {u.samples.length} of {u.batchSize}</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">action a</th>
              <th scope="col">reward r = U</th>
              <th scope="col">allowed actions in s</th>
            </tr>
          </thead>
          <tbody>
            {u.samples.map((x, i) => (
              <tr key={i}>
                <td>{i + 1}</td>
                <td>{action(x.action)}</td>
                <td>{f(x.reward)}</td>
                <td>{x.allowed}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ),
    },
    {
      title: '2. The soft Q target and the critic loss',
      equation: 'V(s′) = π(s′)ᵀ[min Q̄(s′) − α log π(s′)] (Eq. 8);  y = r + γ V(s′) (Eq. 7);  J_Q = ½ E[(Q(s,a) − y)²] (Eq. 9)',
      body: (
        <>
          <table className="walkthrough-table" data-testid="walkthrough.target">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">V(s′)</th>
                <th scope="col">y = r + {u.gamma}·V(s′)</th>
                <th scope="col">Q₁(s,a)</th>
                <th scope="col">Q₂(s,a)</th>
              </tr>
            </thead>
            <tbody>
              {u.samples.map((x, i) => (
                <tr key={i}>
                  <td>{i + 1}</td>
                  <td>{f(x.nextValue)}</td>
                  <td>{f(x.target)}</td>
                  <td>{f(x.q1)}</td>
                  <td>{f(x.q2)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p>
            {first
              ? `For the first transition: y = ${f(first.reward)} + ${u.gamma} × ${f(first.nextValue)} = ${f(first.target)}; the twin critics said ${f(first.q1)} and ${f(first.q2)}. `
              : ''}
            Critic loss over the minibatch: <strong data-testid="walkthrough.critic-loss">{f(u.criticLoss, 4)}</strong>. Both Q networks step to shrink it; their targets follow
            slowly (τ = 0.005).
          </p>
        </>
      ),
    },
    {
      title: '3. The policy loss',
      equation: 'J_π = E_s[ π(s)ᵀ (α log π(s) − min Q(s)) ] (Eq. 11)',
      body: (
        <p>
          The policy moves probability towards actions the critics value, paying α for every nat of entropy it gives up. Mean entropy of π over the minibatch:{' '}
          <strong>{f(u.entropy)} nats</strong>; policy loss <strong data-testid="walkthrough.policy-loss">{f(u.policyLoss, 4)}</strong>.{' '}
          {first ? `In the first state the most probable action is ${action(first.bestAction)}.` : ''}
        </p>
      ),
    },
    {
      title: '4. The temperature update',
      equation: 'J(α) = E[−α (log π(a|s) + H̄)] (Eq. 12), H̄ = ratio · ln |A_allowed|',
      body: u.entropyOn ? (
        <p>
          The entropy {f(u.entropy)} is {u.entropy > u.targetEntropy ? 'above' : 'below'} the target {f(u.targetEntropy)}, so α {u.entropy > u.targetEntropy ? 'falls' : 'rises'}: from{' '}
          <strong data-testid="walkthrough.alpha-before">{alpha.before}</strong> to <strong data-testid="walkthrough.alpha-after">{alpha.after}</strong>
          {alpha.unchanged ? ' (a change below the twelfth decimal)' : ''}.
        </p>
      ) : (
        <p>TAC has no entropy term: α stays 0 and there is no temperature step. This is the only difference from BCEdge’s learner.</p>
      ),
    },
  ];
}

/**
 * Walks a class through one SAC update of a BCEdge (or TAC) lane with the numbers of that
 * very update: pause, run the next update in the worker with every step read
 * back, then step through the four parts with Next and Back.
 */
export function SacWalkthrough({ store, lane }: { readonly store: ServingStore; readonly lane: number }) {
  const [update, setUpdate] = useState<SacUpdateExplained | null>(null);
  const [step, setStep] = useState(0);
  const [note, setNote] = useState('');
  const start = async () => {
    await store.getState().pause();
    const explained = await store.getState().explainUpdate(lane);
    if (explained === null) {
      setNote('No transition has been stored yet: let the run play a few slots first.');
      return;
    }
    setNote('');
    setUpdate(explained);
    setStep(0);
  };
  const all = update === null ? [] : steps(update);
  const current = all[step];
  return (
    <div className="sac-walkthrough" data-testid={`walkthrough.${lane}`}>
      <button type="button" data-testid={`walkthrough.start.${lane}`} onClick={() => void start()}>
        {update === null ? 'Walk through one SAC update' : 'Walk through the next update'}
      </button>
      {note === '' ? null : <p role="status">{note}</p>}
      {current === undefined ? null : (
        <section aria-label="One SAC update, step by step" className="walkthrough-step" data-testid="walkthrough.step" data-step={step + 1}>
          <h4>{current.title}</h4>
          <p className="walkthrough-equation">{current.equation}</p>
          {current.body}
          <div className="walkthrough-nav">
            <button type="button" disabled={step === 0} onClick={() => setStep(step - 1)} data-testid="walkthrough.back">
              Back
            </button>
            <span>
              step {step + 1} of {all.length}
            </span>
            <button type="button" disabled={step === all.length - 1} onClick={() => setStep(step + 1)} data-testid="walkthrough.next">
              Next
            </button>
          </div>
        </section>
      )}
    </div>
  );
}
