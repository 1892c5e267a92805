/**
 * The link's packing (ARCHITECTURE §7): JSON ⇄ `z1=` + base64url of zlib, with the bounds a
 * link may cost to open. Apart from `link.ts` (which validates, with the schema and the world
 * list) so that the page can open the link in its address bar before those have loaded: it
 * needs only this and the page's list of worlds to know which lab and worker to start.
 */
import { Inflate, zlibSync } from 'fflate';
import type { WorldId } from '../kit/worlds';
import type { FieldError } from './schema';

/**
 * Bounds on what a link may cost to open (ARCHITECTURE §7): a hostile link is refused before it
 * can hang the page or exhaust its memory.
 */
export const LINK_LIMITS = {
  /** Characters in the hash fragment, without the '#'. */
  maxHashChars: 65_536,
  /** Bytes of JSON a link may unpack to. */
  maxJsonBytes: 1 << 20,
} as const;

/**
 * The codec's own version. The scenario JSON inside carries its schema `version` and is
 * migrated on decode; this prefix only changes if the packing (zlib + base64url) does.
 */
const CODEC = 'z1';


/**
 * Compressed bytes fed to the inflater per step. Deflate expands at most about 1032:1, so a
 * step adds at most ~260 KB before the size check runs: a decompression bomb is stopped a
 * few steps past the limit instead of being unpacked whole.
 */
const INFLATE_STEP_BYTES = 256;

/**
 * Packs JSON text with the link codec as is, unvalidated. For old documents (a version 1
 * scenario) and for tests that need a link to hostile JSON.
 */
export function encodeLinkJson(json: string): string {
  return `${CODEC}=${toBase64Url(zlibSync(new TextEncoder().encode(json), { level: 9 }))}`;
}

/** The worlds a scenario belongs to (its `world` field; pipeline when absent). */
export type ScenarioWorld = WorldId;

/**
 * An opened link: its document and the world it names, not yet validated — the page hands it
 * to its world's lab, whose worker validates it at its door, once (ARCHITECTURE §1, the data
 * path) — or the errors of a link that cannot be unpacked (it belongs to the lab's first world).
 */
export type OpenedLink =
  | { readonly ok: true; readonly world: ScenarioWorld; readonly document: unknown }
  | { readonly ok: false; readonly world: ScenarioWorld; readonly errors: readonly FieldError[] };

/**
 * Unpacks a link of any world and says which world it belongs to (`worldOf`, the document's
 * `world` read against a list of worlds: the first for none or an unknown one), without
 * validating its scenario (the world's door does): every check up to the JSON value (length,
 * codec, base64url, bounded inflate, UTF-8, JSON; forbidden keys are the door's). Never throws.
 */
export function openLinkWith(hash: string, worldOf: (document: unknown) => ScenarioWorld): OpenedLink {
  const value = unpackLink(hash);
  if ('errors' in value) return { ok: false, world: worldOf(null), errors: value.errors };
  return { ok: true, world: worldOf(value.json), document: value.json };
}

/** Every check up to the JSON value (length, codec, base64url, bounded inflate, UTF-8, JSON). */
export function unpackLink(hash: string): { readonly json: unknown } | { readonly ok: false; readonly errors: readonly FieldError[] } {
  if (typeof hash !== 'string') return linkError('is not a scenario link');
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  if (fragment.length > LINK_LIMITS.maxHashChars) {
    return linkError(`is too long (${fragment.length} characters; at most ${LINK_LIMITS.maxHashChars})`);
  }

  const prefix = /^(z\d{1,6})=/.exec(fragment)?.[1];
  if (prefix === undefined) return linkError('is not a scenario link');
  if (prefix !== CODEC) return linkError(`uses an unknown format "${prefix}" (this lab reads ${CODEC})`);

  const packed = fromBase64Url(fragment.slice(CODEC.length + 1));
  if (packed === undefined) return linkError('is not valid base64url');

  const unpacked = inflateBounded(packed, LINK_LIMITS.maxJsonBytes);
  if (unpacked === 'corrupt') return linkError('the compressed data is corrupt');
  if (unpacked === 'too large') return linkError(`unpacks to more than ${LINK_LIMITS.maxJsonBytes} bytes`);

  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(unpacked));
  } catch {
    return linkError('does not hold valid JSON');
  }

  // Forbidden keys (`__proto__`, …) are refused by the scenario door (`parseAnyScenario`), as at every other door.
  return { json: value };
}

function linkError(message: string): { readonly ok: false; readonly errors: readonly FieldError[] } {
  return { ok: false, errors: [{ path: 'link', message }] };
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  // Chunked: spreading a whole large array into one call can exceed the argument limit.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Unpadded base64url to bytes; undefined for a character outside the alphabet or a length no encoder makes. */
function fromBase64Url(text: string): Uint8Array | undefined {
  // Checked here because atob would also accept '+', '/', '=' and whitespace.
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** Adler-32 (RFC 1950 §8.2) of `bytes`. */
export function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  // 5552 is the largest run before b can overflow 2^32 between reductions (zlib's NMAX).
  for (let at = 0; at < bytes.length; at += 5552) {
    const end = Math.min(at + 5552, bytes.length);
    for (let i = at; i < end; i++) {
      a += bytes[i]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/**
 * zlib to bytes: checks the two-byte header, inflates the DEFLATE body giving up as soon as
 * the output passes `maxBytes`, and verifies the Adler-32 trailer (fflate strips it unread).
 */
function inflateBounded(packed: Uint8Array, maxBytes: number): Uint8Array | 'corrupt' | 'too large' {
  // Header (CM = 8, no preset dictionary, FCHECK) + at least one body byte + 4-byte checksum.
  if (packed.length < 7) return 'corrupt';
  const cmf = packed[0]!;
  const flg = packed[1]!;
  if ((cmf & 0x0f) !== 8 || (cmf >> 4) > 7 || (flg & 0x20) !== 0 || ((cmf << 8) | flg) % 31 !== 0) return 'corrupt';
  const body = packed.subarray(2, packed.length - 4);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const inflater = new Inflate((chunk) => {
    size += chunk.length;
    if (size <= maxBytes) chunks.push(chunk);
  });
  try {
    for (let at = 0; at < body.length; at += INFLATE_STEP_BYTES) {
      const end = Math.min(at + INFLATE_STEP_BYTES, body.length);
      // The last step is pushed as final, so a stream cut short throws "unexpected EOF".
      inflater.push(body.subarray(at, end), end === body.length);
      if (size > maxBytes) return 'too large';
    }
  } catch {
    return 'corrupt';
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  const t = packed.subarray(packed.length - 4);
  const expected = ((t[0]! << 24) | (t[1]! << 16) | (t[2]! << 8) | t[3]!) >>> 0;
  return adler32(out) === expected ? out : 'corrupt';
}
