import type { OpenedLink } from '../../scenario/linkPacking';
import { pageWorldIn, type PageWorld } from './pageWorld';

/**
 * The link's packing (a small chunk: `fflate`), loaded when a link is first opened. Not the
 * whole codec (`linkSync.ts` `linkCodec`, with the schema and the world list): the page needs
 * only to unpack a link and know its world to start that world's lab and worker, which then
 * validates it at its door (ARCHITECTURE §1, the data path).
 */
let packing: Promise<typeof import('../../scenario/linkPacking')> | null = null;
function linkPacking(): Promise<typeof import('../../scenario/linkPacking')> {
  packing ??= import('../../scenario/linkPacking');
  packing.catch(() => (packing = null));
  return packing;
}

/**
 * Opens a link in the page: unpacked, not validated, its world read against the page's list of
 * worlds (`pages`, `pageWorldIn`: the first for a document that names none or one the list does
 * not have, as the world list's `worldOfDocument`). Never rejects: a packing that did not load is
 * the first lab's link error, and the address keeps the link.
 */
export async function openPageLink(hash: string, pages: readonly PageWorld[]): Promise<OpenedLink> {
  try {
    return (await linkPacking()).openLinkWith(hash, (document) => pageWorldIn(pages, worldNamed(document)).id as OpenedLink['world']);
  } catch (error) {
    return { ok: false, world: pageWorldIn(pages, '').id as OpenedLink['world'], errors: [{ path: 'link', message: `could not be read: ${error instanceof Error ? error.message : String(error)}` }] };
  }
}

/** The `world` a document names ('' for none). */
function worldNamed(document: unknown): string {
  const world = document !== null && typeof document === 'object' ? (document as { world?: unknown }).world : undefined;
  return typeof world === 'string' ? world : '';
}
