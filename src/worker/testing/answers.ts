import type { Answer } from '../liveProtocol';

/** A call's answer when it was done; a refusal fails the test with its field errors. */
export function done<D extends object>(answer: Answer<D>): { readonly ok: true } & D {
  if (!answer.ok) throw new Error(`refused: ${answer.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  return answer;
}
