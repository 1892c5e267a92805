import type { AgentFile, LearnerKind } from './learner';
import type { MlpWeights } from './nn';
import { STATE_SIZE } from './features';

/** What `loadNetworks` installs weights into: an `Mlp`, or a network kept in a host array. */
export interface LoadableNetwork {
  decodeWeights(weights: MlpWeights, name: string): Float32Array;
  setFlat(flat: Float32Array): void;
}

/**
 * Checks a saved agent's header against the learner that loads it; throws a RangeError
 * naming the field (a file from the page, IndexedDB or public/agents is untrusted input).
 */
export function checkAgentFile(file: AgentFile, kind: LearnerKind, stateSize: number, actionCount: number): void {
  if (typeof file !== 'object' || file === null) throw new RangeError('agent: expected an object');
  if (file.format !== 'interference-lab-agent') throw new RangeError(`agent.format: expected "interference-lab-agent", got ${JSON.stringify(file.format)}`);
  if (file.version !== 1) throw new RangeError(`agent.version: expected 1, got ${JSON.stringify(file.version)}`);
  if (file.kind !== kind) throw new RangeError(`agent.kind: this scheduler is ${kind}, the file holds ${JSON.stringify(file.kind)}`);
  if (file.stateSize !== stateSize) throw new RangeError(`agent.stateSize: expected ${stateSize}, got ${JSON.stringify(file.stateSize)} (a lane's state has ${STATE_SIZE} numbers, ${STATE_SIZE + 1} with stateSlot = 1)`);
  if (file.actionCount !== actionCount) throw new RangeError(`agent.actionCount: expected ${actionCount}, got ${JSON.stringify(file.actionCount)}`);
  if (typeof file.networks !== 'object' || file.networks === null) throw new RangeError('agent.networks: expected an object');
  if (typeof file.scalars !== 'object' || file.scalars === null) throw new RangeError('agent.scalars: expected an object');
}

/**
 * Loads every named network, all or nothing: each is checked and decoded first, and only
 * when all fit are they installed (a bad file leaves the learner as it was). A missing or
 * misfit network is an error naming it.
 */
export function loadNetworks(file: AgentFile, nets: Readonly<Record<string, LoadableNetwork>>): void {
  const decoded = Object.entries(nets).map(([name, net]) => {
    const weights: MlpWeights | undefined = file.networks[name];
    if (weights === undefined || typeof weights !== 'object' || !Array.isArray(weights.sizes)) {
      throw new RangeError(`agent.networks.${name}: missing or not a network`);
    }
    return [net, net.decodeWeights(weights, `agent.networks.${name}`)] as const;
  });
  for (const [net, flat] of decoded) net.setFlat(flat);
}
