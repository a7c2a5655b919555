import os from 'node:os';
import lighthouse, { desktopConfig, defaultConfig, type Config, type Result } from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/harness/browser';
import type { Profile } from './benchPages';

export interface Session {
  readonly token: string;
  readonly user: unknown;
}

export interface PageMeasure {
  readonly target: string;
  readonly path: string;
  readonly profile: Profile;
  readonly signedIn: boolean;
  /** Category scores, 0–100. */
  readonly performance: number;
  readonly accessibility: number;
  readonly bestPractices: number;
  readonly seo: number;
  readonly fcpMs: number;
  readonly lcpMs: number;
  readonly tbtMs: number;
  readonly cls: number;
  /** Bytes on the wire (compressed where the server compressed), all resources / scripts / stylesheets. */
  readonly transferBytes: number;
  readonly scriptBytes: number;
  readonly stylesheetBytes: number;
  readonly requests: number;
  /** The machine's 1-minute load average when the measurement started. */
  readonly loadAverage: number;
  /** Audits below full marks in the accessibility, best-practices and SEO categories (what cost points). */
  readonly failedAudits: readonly string[];
}

const categories = ['performance', 'accessibility', 'best-practices', 'seo'];

function configFor(profile: Profile): Config {
  const base = profile === 'desktop' ? desktopConfig : defaultConfig;
  return { ...base, settings: { ...base.settings, onlyCategories: categories } };
}

function score(result: Result, category: string): number {
  return Math.round((result.categories[category]?.score ?? 0) * 100);
}

function numeric(result: Result, audit: string): number {
  return result.audits[audit]?.numericValue ?? Number.NaN;
}

function resourceBytes(result: Result): { total: number; script: number; stylesheet: number; requests: number } {
  const details = result.audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number; requestCount: number }[] } | undefined;
  const row = (type: string) => details?.items?.find((item) => item.resourceType === type);
  return {
    total: row('total')?.transferSize ?? Number.NaN,
    script: row('script')?.transferSize ?? 0,
    stylesheet: row('stylesheet')?.transferSize ?? 0,
    requests: row('total')?.requestCount ?? 0,
  };
}

function failedAudits(result: Result): string[] {
  const failed: string[] = [];
  for (const id of ['accessibility', 'best-practices', 'seo']) {
    for (const ref of result.categories[id]?.auditRefs ?? []) {
      const audit = result.audits[ref.id];
      if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) failed.push(`${id}:${ref.id}`);
    }
  }
  return failed;
}

/**
 * One Lighthouse navigation of `baseUrl + path` in a fresh Chromium (Debian's, never a downloaded one) with an
 * empty profile and cold cache. Signed in: the session is put into local storage first (as the app keeps it),
 * the HTTP cache is cleared, and Lighthouse is told not to reset storage.
 */
export async function measurePage(options: {
  target: string;
  baseUrl: string;
  path: string;
  profile: Profile;
  session?: Session;
}): Promise<PageMeasure> {
  const loadAverage = os.loadavg()[0] ?? Number.NaN;
  const browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    if (options.session) {
      await page.goto(`${options.baseUrl}/robots.txt`);
      await page.evaluate(
        (token, user) => {
          localStorage.setItem('token', token);
          localStorage.setItem('user', user);
        },
        options.session.token,
        JSON.stringify(options.session.user),
      );
      const cdp = await page.createCDPSession();
      await cdp.send('Network.clearBrowserCache');
      await cdp.detach();
    }
    const run = await lighthouse(
      `${options.baseUrl}${options.path}`,
      { logLevel: 'error', disableStorageReset: Boolean(options.session) },
      configFor(options.profile),
      page,
    );
    if (!run) throw new Error(`Lighthouse returned nothing for ${options.path}`);
    const result = run.lhr;
    if (result.runtimeError) throw new Error(`Lighthouse could not load ${options.path}: ${result.runtimeError.message}`);
    const bytes = resourceBytes(result);
    return {
      target: options.target,
      path: options.path,
      profile: options.profile,
      signedIn: Boolean(options.session),
      performance: score(result, 'performance'),
      accessibility: score(result, 'accessibility'),
      bestPractices: score(result, 'best-practices'),
      seo: score(result, 'seo'),
      fcpMs: numeric(result, 'first-contentful-paint'),
      lcpMs: numeric(result, 'largest-contentful-paint'),
      tbtMs: numeric(result, 'total-blocking-time'),
      cls: numeric(result, 'cumulative-layout-shift'),
      transferBytes: bytes.total,
      scriptBytes: bytes.script,
      stylesheetBytes: bytes.stylesheet,
      requests: bytes.requests,
      loadAverage,
      failedAudits: failedAudits(result),
    };
  } finally {
    await browser.close();
  }
}
