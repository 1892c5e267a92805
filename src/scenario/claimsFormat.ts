import type { ClaimRow, ClaimsReport } from './claimsReport';
import { formatEstimate, verdictCounts } from './claims';
import { paperName } from '../kit/worlds';

/**
 * The reproduction report as text: a terminal table, or Markdown a reader can put in a
 * paper's artifact appendix. Pure; the CLI's `claims --format table|md` prints these.
 */

/** The modelling choices whose readings disagree on the verdict of a row (its "what flips it"). */
export function flipsOf(row: Pick<ClaimRow, 'sensitivity'>): string[] {
  return row.sensitivity.filter((s) => new Set(s.readings.filter((r) => r.estimate !== null).map((r) => r.verdict)).size > 1).map((s) => s.label);
}

const lab = (row: ClaimRow): string => (row.estimate === null ? '—' : formatEstimate(row.estimate));

/** One line per claim: id, verdict, the lab's number, the paper's, what flips it. */
export function claimsTable(report: ClaimsReport): string {
  const header = ['claim', 'verdict', 'lab', 'paper', 'flips it'];
  const lines = report.rows.map((r) => [r.id, r.verdict, lab(r), r.paperNumber ?? '(direction)', flipsOf(r).join(', ') || '—']);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: readonly string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  const counts = verdictCounts(report.rows);
  return [
    format(header),
    ...lines.map(format),
    '',
    `${report.rows.length} claims: ${counts.holds} hold, ${counts.partly} partly, ${counts.fails} fail, ${counts.noise} inside the noise (${report.provenance.seeds} seeds, commit ${report.provenance.commit})`,
    '',
  ].join('\n');
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The verdict table alone (claim, paper, lab, verdict, what flips it) in Markdown. */
export function claimsMarkdownTable(report: ClaimsReport): string {
  const lines = ['| claim | paper | lab | verdict | what flips it |', '|---|---|---|---|---|'];
  for (const r of report.rows) {
    lines.push(`| ${cell(`${paperName(r.paper)} ${r.where}: ${r.id}`)} | ${cell(r.paperNumber ?? 'direction only')} | ${cell(lab(r))} | ${r.verdict} | ${cell(flipsOf(r).join(', ') || '—')} |`);
  }
  return lines.join('\n');
}

/** A reproduction report for an artifact appendix: provenance, the verdict table, then each claim with its strip. */
export function claimsMarkdown(report: ClaimsReport): string {
  const p = report.provenance;
  const counts = verdictCounts(report.rows);
  const out: string[] = [
    '# Reproduction report',
    '',
    `Computed by Interference Lab at commit \`${p.commit}\` on ${p.date} (${p.machine}), ${p.seeds} seeds per cell unless a row says otherwise, with:`,
    '',
    '```',
    p.command,
    '```',
    '',
    `${report.rows.length} claims: **${counts.holds} hold, ${counts.partly} partly, ${counts.fails} fail, ${counts.noise} inside the noise.** Numbers are means with 95 % intervals over seeds (Student's t).`,
    '',
    claimsMarkdownTable(report),
    '',
  ];
  for (const r of report.rows) {
    out.push(`## ${paperName(r.paper)} ${r.where}: \`${r.id}\``, '', `> ${r.quote}`, '');
    out.push(`- Paper: ${r.paperNumber ?? 'a direction, no number'}`);
    out.push(`- Lab: ${r.labNumber}: **${lab(r)}**${r.seeds === undefined ? '' : ` (${r.seeds} seed${r.seeds === 1 ? '' : 's'})`}`);
    out.push(`- Verdict: **${r.verdict}**: ${r.reason}`);
    if (r.note !== undefined) out.push(`- Setting: ${r.note}`);
    if (r.references !== undefined && r.references.length > 0) out.push(`- References, measured the same way: ${r.references.map((x) => `${x.label} ${formatEstimate(x.estimate)}`).join('; ')}`);
    if (r.sensitivity.length > 0) {
      out.push('', '| choice | reading | lab | verdict |', '|---|---|---|---|');
      for (const s of r.sensitivity) {
        for (const reading of s.readings) out.push(`| ${cell(s.label)} | ${cell(String(reading.value))} | ${reading.estimate === null ? '—' : formatEstimate(reading.estimate)} | ${reading.verdict} |`);
      }
    }
    out.push('');
  }
  return out.join('\n');
}
