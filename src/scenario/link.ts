import { parseAnyScenario } from './parse';
import { worldOfDocument } from '../kit/worlds';
import { encodeLinkJson, openLinkWith, unpackLink, type OpenedLink, type ScenarioWorld } from './linkPacking';
export { adler32, encodeLinkJson, LINK_LIMITS, type OpenedLink, type ScenarioWorld } from './linkPacking';
import { formatErrors, validateAnyScenario, type AnyScenario, type FieldError, type AnyScenarioResult } from './schema';

/**
 * The hash of a scenario a lab holds: it came through a door (the worker's validation of a
 * load or an edit), so it is packed without validating it again — the page writes the address
 * on every edit, and a link is validated where it is opened. Use `encodeAnyScenarioLink` for a
 * scenario of unknown origin.
 */
export function encodeHeldScenarioLink(scenario: AnyScenario): string {
  return encodeLinkJson(JSON.stringify(scenario));
}

/**
 * Opens a link of any world: the hash fragment with or without its '#'. Never throws. Checks,
 * in order, length, codec prefix, base64url, decompression (bounded while inflating), UTF-8
 * and JSON, forbidden keys, then migrations and field validation by the document's world (a
 * world's own door: `worlds/pipeline/link.ts`); the first failing step answers, with path
 * `link` or the scenario field's path.
 */
export function decodeAnyScenarioLink(hash: string): AnyScenarioResult {
  const value = unpackLink(hash);
  return 'errors' in value ? value : parseAnyScenario(value.json);
}

/**
 * Unpacks a link of any world and says which world it belongs to (the world list's
 * `worldOfDocument`), without validating its scenario (the world's door does). Never throws.
 */
export function openLink(hash: string): OpenedLink {
  return openLinkWith(hash, (document) => worldOfDocument(document).id);
}

/** A decoded link, routed: the scenario of its world, or the errors and the world they belong to. */
export type RoutedLink =
  | { readonly ok: true; readonly world: ScenarioWorld; readonly scenario: AnyScenario }
  | { readonly ok: false; readonly world: ScenarioWorld; readonly errors: readonly FieldError[] };

/**
 * `openLink` and the scenario validated here (the command line's and the tests' way; the page
 * leaves the validation to its lab's worker): a serving link with a bad field is reported with
 * the serving scenario's own field errors. Never throws.
 */
export function decodeLink(hash: string): RoutedLink {
  const opened = openLink(hash);
  if (!opened.ok) return opened;
  const parsed = parseAnyScenario(opened.document);
  return parsed.ok ? { ok: true, world: opened.world, scenario: parsed.scenario } : { ok: false, world: opened.world, errors: parsed.errors };
}

/**
 * The hash fragment (without '#') that shares a scenario of any world: `z1=` + base64url (RFC
 * 4648 §5, no padding) of zlib (RFC 1950: DEFLATE level 9 with a two-byte header and an
 * Adler-32 of the JSON) of its UTF-8 JSON. The checksum costs eight characters and catches a
 * damaged link that would otherwise inflate to a different, valid scenario (about 1 % of
 * single-byte flips did, with raw DEFLATE).
 *
 * Deterministic: the scenario is validated first and the validated copy serialized, and zod
 * writes keys in schema order, so equal scenarios give equal links whatever their key order.
 * A scenario large enough to exceed `LINK_LIMITS.maxHashChars` still encodes, but will not
 * decode; check the length and offer a file instead.
 *
 * @throws RangeError if `scenario` does not validate: scenarios reach the lab through
 * validating doors, so an invalid one here is a bug, not a person's mistake.
 */
export function encodeAnyScenarioLink(scenario: AnyScenario): string {
  const checked = validateAnyScenario(scenario);
  if (!checked.ok) throw new RangeError(`cannot link an invalid scenario:\n${formatErrors(checked.errors)}`);
  return encodeLinkJson(JSON.stringify(checked.scenario));
}

