import { describe, expect, it } from 'vitest';
import { encodeLinkJson, openLink } from '../../scenario/link';
import { worldIds } from '../../kit/worlds';
import { PAGE_WORLDS } from '../../worlds/pages';
import { openPageLink } from './openPageLink';

describe('the page opens a link as the world list does, with the packing alone', () => {
  it('the page’s list of worlds is the world list, in its order', () => {
    expect(PAGE_WORLDS.map((w) => w.id)).toEqual(worldIds());
  });

  it.each([
    ['a serving document', { world: 'serving', version: 5 }],
    ['a document naming no world (the first)', { version: 1 }],
    ['a document naming a world the list does not have (the first; its door names the field)', { world: 'queueing' }],
    ['a document naming a world by a number', { world: 3 }],
    ['JSON that is not an object', [1, 2]],
  ])('%s', async (_name, document) => {
    const hash = encodeLinkJson(JSON.stringify(document));
    expect(await openPageLink(hash, PAGE_WORLDS)).toEqual(openLink(hash));
  });

  it('a link that cannot be unpacked: the same error, for the first world', async () => {
    expect(await openPageLink('z1=@@@', PAGE_WORLDS)).toEqual(openLink('z1=@@@'));
    expect(await openPageLink('z9=abc', PAGE_WORLDS)).toEqual(openLink('z9=abc'));
  });
});
