import { kB } from './benchGoals';
import type { PageMeasure } from './measurePage';

const columns = ['target', 'page', 'profile', 'load', 'perf', 'a11y', 'BP', 'SEO', 'FCP', 'LCP', 'TBT', 'CLS', 'transferred', 'JS', 'CSS', 'requests'];

function row(measure: PageMeasure): string[] {
  return [
    measure.target,
    measure.signedIn ? `${measure.path} (signed in)` : measure.path,
    measure.profile,
    measure.loadAverage.toFixed(2),
    String(measure.performance),
    String(measure.accessibility),
    String(measure.bestPractices),
    String(measure.seo),
    `${(measure.fcpMs / 1000).toFixed(2)} s`,
    `${(measure.lcpMs / 1000).toFixed(2)} s`,
    `${Math.round(measure.tbtMs)} ms`,
    measure.cls.toFixed(3),
    kB(measure.transferBytes),
    kB(measure.scriptBytes),
    kB(measure.stylesheetBytes),
    String(measure.requests),
  ];
}

/** A Markdown table of the measurements (load = the machine's 1-minute load average when each run started). */
export function markdownTable(measures: readonly PageMeasure[]): string {
  const lines = [`| ${columns.join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`];
  for (const measure of measures) lines.push(`| ${row(measure).join(' | ')} |`);
  return lines.join('\n');
}

/** The one-line JSON summary: each page's scores, LCP, TBT, CLS and transferred bytes. */
export function jsonSummary(measures: readonly PageMeasure[], missed: readonly string[], runs: number): string {
  return JSON.stringify({
    runs,
    goalsMet: missed.length === 0,
    missed,
    pages: measures.map((measure) => ({
      target: measure.target,
      path: measure.path,
      profile: measure.profile,
      signedIn: measure.signedIn,
      loadAverage: Number(measure.loadAverage.toFixed(2)),
      scores: { performance: measure.performance, accessibility: measure.accessibility, bestPractices: measure.bestPractices, seo: measure.seo },
      lcpMs: Math.round(measure.lcpMs),
      tbtMs: Math.round(measure.tbtMs),
      cls: Number(measure.cls.toFixed(4)),
      transferredBytes: measure.transferBytes,
      scriptBytes: measure.scriptBytes,
      stylesheetBytes: measure.stylesheetBytes,
    })),
  });
}
