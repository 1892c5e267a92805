import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every style sheet of the page, under src/. */
function styleSheets(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? styleSheets(join(dir, e.name)) : e.name.endsWith('.css') ? [join(dir, e.name)] : []));
}

/**
 * Where a style sheet's blocks go wrong: the first line at which more blocks close than opened,
 * or the count still open at its end (comments and strings left out). A block left open by an
 * edit swallows every rule after it without a word from the browser or the build.
 */
export function unbalancedBlocks(css: string): string | null {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/"[^"\n]*"|'[^'\n]*'/g, (s) => ' '.repeat(s.length));
  let depth = 0;
  let line = 1;
  for (const ch of text) {
    if (ch === '\n') line++;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth < 0) return `line ${line}: a block closes that never opened`;
  }
  return depth === 0 ? null : `${depth} block(s) still open at the end`;
}

describe('the style sheets', () => {
  const sheets = styleSheets('src');
  it('are found', () => {
    expect(sheets.length).toBeGreaterThanOrEqual(3);
  });
  for (const sheet of sheets) {
    it(`${sheet}: every block it opens, it closes`, () => {
      expect(unbalancedBlocks(readFileSync(sheet, 'utf8'))).toBeNull();
    });
  }
  it('the check finds a block left open and one closed twice', () => {
    expect(unbalancedBlocks('.a { color: red;\n.b { color: blue; }')).toBe('1 block(s) still open at the end');
    expect(unbalancedBlocks('.a { }\n}')).toBe('line 2: a block closes that never opened');
    expect(unbalancedBlocks('/* { */ .a { content: "}"; }')).toBeNull();
  });
});
