import type { PageMeasure } from './measurePage';

/** The goals of issue 22, checked on the measured target (never on a comparison). */
export const goals = {
  publicMobilePerformance: 95,
  publicLcpMs: 2000,
  publicTbtMs: 100,
  publicCls: 0.05,
  /** Accessibility, best practices and SEO, mobile and desktop. */
  publicOtherCategories: 100,
  homeTransferBytes: 200_000,
  homeScriptBytes: 90_000,
  portalMobilePerformance: 90,
} as const;

/** Every goal a measurement misses, in words ("/about mobile: LCP 2310 ms > 2000 ms"). */
export function missedGoals(measure: PageMeasure): string[] {
  const where = `${measure.path} ${measure.profile}`;
  const missed: string[] = [];
  if (measure.signedIn) {
    if (measure.profile === 'mobile' && measure.performance < goals.portalMobilePerformance) {
      missed.push(`${where} (signed in): performance ${measure.performance} < ${goals.portalMobilePerformance}`);
    }
    return missed;
  }
  if (measure.profile === 'mobile') {
    if (measure.performance < goals.publicMobilePerformance) missed.push(`${where}: performance ${measure.performance} < ${goals.publicMobilePerformance}`);
    if (measure.lcpMs > goals.publicLcpMs) missed.push(`${where}: LCP ${Math.round(measure.lcpMs)} ms > ${goals.publicLcpMs} ms`);
    if (measure.tbtMs > goals.publicTbtMs) missed.push(`${where}: TBT ${Math.round(measure.tbtMs)} ms > ${goals.publicTbtMs} ms`);
    if (measure.cls > goals.publicCls) missed.push(`${where}: CLS ${measure.cls.toFixed(3)} > ${goals.publicCls}`);
  }
  for (const [name, value] of [
    ['accessibility', measure.accessibility],
    ['best practices', measure.bestPractices],
    ['SEO', measure.seo],
  ] as const) {
    if (value < goals.publicOtherCategories) missed.push(`${where}: ${name} ${value} < ${goals.publicOtherCategories}`);
  }
  if (measure.path === '/') {
    if (measure.transferBytes > goals.homeTransferBytes) missed.push(`${where}: ${kB(measure.transferBytes)} transferred > ${kB(goals.homeTransferBytes)}`);
    if (measure.scriptBytes > goals.homeScriptBytes) missed.push(`${where}: ${kB(measure.scriptBytes)} of JavaScript > ${kB(goals.homeScriptBytes)}`);
  }
  return missed;
}

export function kB(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} kB`;
}
