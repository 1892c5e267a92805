/**
 * What the first load holds (ARCHITECTURE §7a′): builds the page with source maps, reads the
 * entry script and its modulepreloads from `index.html` (the files `benchFirstLoad` counts),
 * and attributes every byte of them to the source module the map says it came from, summed
 * by package (`react-dom`, `d3-scale`, …) or by folder of `src/` (`src/ui`, `src/charts`, …).
 *
 *   npx tsx bench/firstLoadMap.ts [--out-dir dist-map] [--modules] [--no-build]
 *
 * Columns: raw bytes of minified code, the gzip size of that code compressed alone, and its
 * share of the files' real gzip total (the alone-sizes scaled to add up to it — gzip-ish: code
 * compresses better beside its neighbours, so a share is an estimate, the total is exact).
 * `--modules` lists single source files instead of packages; `--exports` lists what the entry
 * exports to the chunks loaded later (code it may hold only for them). Bytes no mapping covers (the
 * bundler's glue) are listed as `(unmapped)`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseAst } from 'rolldown/parseAst';

const nameOf = (node: { type: string; name?: string; value?: unknown }): string => (node.type === 'Identifier' ? node.name! : String(node.value));

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]));

/** Decodes one segment of a source map's `mappings` (base64 VLQ) into its fields. */
export function decodeVlq(segment: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const c of segment) {
    const digit = DIGIT.get(c);
    if (digit === undefined) throw new Error(`source map: bad VLQ character ${JSON.stringify(c)}`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

interface SourceMap {
  sources: string[];
  names?: string[];
  mappings: string;
}

/** The map's segments of each generated line: [column, source index, original name or null], by column. */
function segmentsByLine(map: SourceMap): [number, number, string | null][][] {
  let source = 0;
  let name = 0;
  return map.mappings.split(';').map((line) => {
    let column = 0;
    const out: [number, number, string | null][] = [];
    for (const segment of line.split(',')) {
      if (segment === '') continue;
      const fields = decodeVlq(segment);
      column += fields[0]!;
      if (fields.length >= 4) source += fields[1]!;
      if (fields.length >= 5) name += fields[4]!;
      out.push([column, fields.length >= 4 ? source : -1, fields.length >= 5 ? (map.names?.[name] ?? null) : null]);
    }
    return out;
  });
}

/**
 * The entry chunk's exports (what the lazily loaded chunks import from it), each with its
 * original name and module and the chunks that import it: code the entry may hold only for
 * chunks loaded later, because a module the entry needs also exports it.
 */
export function entryExports(outDir: string): { name: string; original: string; module: string; importers: string[] }[] {
  const entry = firstLoadFiles(outDir)[0]!;
  const code = readFileSync(join(outDir, entry), 'utf8');
  const map = JSON.parse(readFileSync(join(outDir, `${entry}.map`), 'utf8')) as SourceMap;
  const segments = segmentsByLine(map);
  const ast = parseAst(code);
  const declared = new Map<string, number>();
  let exportList: { local: string; exported: string }[] = [];
  for (const node of ast.body) {
    if ((node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') && node.id) declared.set(node.id.name, node.id.start);
    if (node.type === 'VariableDeclaration') for (const d of node.declarations) if (d.id.type === 'Identifier') declared.set(d.id.name, d.id.start);
    if (node.type === 'ExportNamedDeclaration' && node.source === null) {
      exportList = node.specifiers.map((spec) => ({ local: nameOf(spec.local), exported: nameOf(spec.exported) }));
    }
  }
  const lineStarts = [0];
  for (let i = 0; i < code.length; i++) if (code.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const entryFile = entry.replace(/^.*\//, '');
  const chunks = readdirSync(join(outDir, 'assets')).filter((f) => f.endsWith('.js') && f !== entryFile);
  const escape = (text: string): string => text.replace(/[$]/g, '\\$&');
  return exportList.map(({ local, exported }) => {
    let original = '?';
    let module = '?';
    const offset = declared.get(local);
    if (offset !== undefined) {
      let l = lineStarts.length - 1;
      while (lineStarts[l]! > offset) l--;
      const column = offset - lineStarts[l]!;
      let best: [number, number, string | null] | undefined;
      for (const seg of segments[l] ?? []) if (seg[0] <= column) best = seg;
      if (best && best[1] >= 0) {
        module = groupOf(map.sources[best[1]]!, true);
        original = best[2] ?? local;
      }
    }
    const importers = chunks.filter((chunk) => new RegExp(`import\\{[^}]*\\b${escape(exported)} as [^}]*\\}from"\\./${escape(entryFile)}"`).test(readFileSync(join(outDir, 'assets', chunk), 'utf8')));
    return { name: exported, original, module, importers: importers.map((c) => c.replace(/-[\w-]+\.js$/, '')) };
  });
}

/** Splits generated `code` into the pieces each source produced: source index (−1 = unmapped) → code. */
export function codeBySource(code: string, map: SourceMap): Map<number, string[]> {
  const pieces = new Map<number, string[]>();
  const add = (source: number, text: string): void => {
    if (text.length === 0) return;
    const list = pieces.get(source);
    if (list) list.push(text);
    else pieces.set(source, [text]);
  };
  const lines = code.split('\n');
  const mapLines = map.mappings.split(';');
  let source = 0;
  for (let l = 0; l < lines.length; l++) {
    const line = lines[l]! + (l < lines.length - 1 ? '\n' : '');
    let column = 0;
    let start = 0;
    let current = -1;
    for (const segment of (mapLines[l] ?? '').split(',')) {
      if (segment === '') continue;
      const fields = decodeVlq(segment);
      column += fields[0]!;
      add(current, line.slice(start, column));
      start = column;
      if (fields.length >= 4) {
        source += fields[1]!;
        current = source;
      } else {
        current = -1;
      }
    }
    add(current, line.slice(start));
  }
  return pieces;
}

/** The group a source path belongs to: its npm package, its `src/` folder, or the path. */
export function groupOf(path: string, modules: boolean): string {
  const clean = path.replace(/^(\.\.\/)+/, '').replace(/\?.*$/, '');
  if (modules) return clean;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(clean);
  if (pkg) return pkg[1]!;
  const src = /^src\/([^/]+)\/(?:([^/]+)\/)?/.exec(clean);
  if (src) return src[2] && !src[2].includes('.') ? `src/${src[1]}/${src[2]}` : `src/${src[1]}`;
  return clean;
}

/** The first-load files of a build: the entry script and its modulepreloads. */
export function firstLoadFiles(outDir: string): string[] {
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  return [...new Set([...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="\/?([^"]+\.js)"/g)].map((m) => m[1]!))];
}

interface Row {
  group: string;
  rawBytes: number;
  aloneGzipBytes: number;
  shareGzipBytes: number;
}

/** Attributes the first load of the build in `outDir` (built with source maps) to groups. */
export function attributeFirstLoad(outDir: string, modules: boolean): { rows: Row[]; rawBytes: number; gzipBytes: number } {
  const byGroup = new Map<string, string[]>();
  let rawBytes = 0;
  let gzipBytes = 0;
  for (const file of firstLoadFiles(outDir)) {
    const path = join(outDir, file);
    const code = readFileSync(path, 'utf8');
    rawBytes += Buffer.byteLength(code);
    gzipBytes += gzipSync(code, { level: 9 }).length;
    const mapPath = `${path}.map`;
    if (!existsSync(mapPath)) {
      byGroup.set(`(no map) ${file}`, [code]);
      continue;
    }
    const map = JSON.parse(readFileSync(mapPath, 'utf8')) as SourceMap;
    const base = dirname(file);
    for (const [source, texts] of codeBySource(code, map)) {
      const group = source < 0 ? '(unmapped)' : groupOf(join(base, map.sources[source]!).replace(/^assets\//, ''), modules);
      const list = byGroup.get(group);
      if (list) list.push(...texts);
      else byGroup.set(group, [...texts]);
    }
  }
  const alone = [...byGroup].map(([group, texts]) => {
    const text = texts.join('');
    return { group, rawBytes: Buffer.byteLength(text), aloneGzipBytes: gzipSync(text, { level: 9 }).length };
  });
  const aloneTotal = alone.reduce((s, r) => s + r.aloneGzipBytes, 0);
  const rows = alone.map((r) => ({ ...r, shareGzipBytes: (r.aloneGzipBytes / aloneTotal) * gzipBytes })).sort((a, b) => b.shareGzipBytes - a.shareGzipBytes);
  return { rows, rawBytes, gzipBytes };
}

function main(): void {
  const args = process.argv.slice(2);
  const dirFlag = args.indexOf('--out-dir');
  const outDir = dirFlag >= 0 ? args[dirFlag + 1] ?? 'dist-map' : 'dist-map';
  if (!args.includes('--no-build')) {
    const build = spawnSync('./node_modules/.bin/vite', ['build', '--outDir', outDir, '--sourcemap', '--emptyOutDir', '--logLevel', 'error'], { encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`vite build failed: ${build.stderr}`);
  }
  if (args.includes('--exports')) {
    for (const e of entryExports(outDir)) console.log(`${e.module.padEnd(48)} ${e.original.padEnd(28)} ← ${e.importers.join(', ')}`);
    return;
  }
  const { rows, rawBytes, gzipBytes } = attributeFirstLoad(outDir, args.includes('--modules'));
  const kB = (n: number): string => (n / 1000).toFixed(1);
  const width = Math.max(...rows.map((r) => r.group.length), 10);
  console.log(`first load: ${firstLoadFiles(outDir).join(', ')}`);
  console.log(`${'group'.padEnd(width)}  ${'raw kB'.padStart(8)}  ${'gzip alone'.padStart(10)}  ${'share kB'.padStart(8)}`);
  for (const r of rows) console.log(`${r.group.padEnd(width)}  ${kB(r.rawBytes).padStart(8)}  ${kB(r.aloneGzipBytes).padStart(10)}  ${kB(r.shareGzipBytes).padStart(8)}`);
  console.log(`${'total'.padEnd(width)}  ${kB(rawBytes).padStart(8)}  ${''.padStart(10)}  ${kB(gzipBytes).padStart(8)}`);
}

if (process.argv[1]?.endsWith('firstLoadMap.ts')) main();
