import { mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { artifactsDir } from './paths';
import './providedContext';

/** Debian's Chromium (apt-get install chromium); never a downloaded browser. Override with CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The viewports the product is designed for. */
export const viewports = {
  mobile: { width: 375, height: 812 },
  tablet: { width: 768, height: 1024 },
  desktop: { width: 1280, height: 800 },
} as const;

export interface E2eBrowser {
  readonly browser: Browser;
  /** Closes the browser and removes its downloads directory. */
  close(): Promise<void>;
}

/**
 * Launches headless Chromium with a fresh, empty profile: Playwright starts it with a new temporary
 * --user-data-dir (playwright_chromiumdev_profile-*) and deletes it on close. One browser per test file is
 * plenty: every newPage() gets its own isolated context (cookies, storage).
 */
export async function launchBrowser(): Promise<E2eBrowser> {
  const downloads = await mkdtemp(path.join(os.tmpdir(), 'bank-e2e-downloads-'));
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    downloadsPath: downloads,
  });
  return {
    browser,
    async close() {
      await browser.close();
      await rm(downloads, { recursive: true, force: true });
    },
  };
}

export interface TrackedPage {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Every console error and uncaught page error seen so far, as text. */
  readonly problems: string[];
}

export interface NewPageOptions {
  viewport?: { width: number; height: number };
  /** Defaults to the server the e2e globalSetup started (inject('baseUrl')). */
  baseURL?: string;
}

/**
 * A page in a fresh browser context whose relative URLs resolve against the test server. Console errors
 * (console.error, failed resource loads) and uncaught exceptions are recorded in `problems`.
 */
export async function newPage(e2e: E2eBrowser, options: NewPageOptions = {}): Promise<TrackedPage> {
  const context = await e2e.browser.newContext({
    baseURL: options.baseURL ?? inject('baseUrl'),
    viewport: options.viewport ?? viewports.desktop,
    acceptDownloads: true,
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') {
      const where = message.location().url;
      problems.push(`console.error: ${message.text()}${where ? ` (${where})` : ''}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { page, context, problems };
}

/** Asserts that no console error or page error happened, except those matching one of `allowed`. */
export function expectNoConsoleErrors(tracked: TrackedPage, allowed: readonly RegExp[] = []): void {
  const unexpected = tracked.problems.filter((problem) => !allowed.some((pattern) => pattern.test(problem)));
  expect(unexpected, 'console errors or page errors').toEqual([]);
}

/** Saves a full-page PNG to artifacts/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = path.join(artifactsDir, 'screenshots');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name.replace(/[^a-z0-9._-]+/gi, '-')}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  return file;
}
