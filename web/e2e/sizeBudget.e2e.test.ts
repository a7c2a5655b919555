import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { PublicPageReport } from '../build/publicPagesPlugin';
import { ensureWebBuild } from './harness/buildWeb';
import { webRoot } from './harness/paths';

const dist = path.join(webRoot, 'dist');

/**
 * Budgets for what the home page loads before it shows, in brotli bytes of the files (the server sends the build's
 * .br copies): today about 85 kB of JavaScript and 6.5 kB of CSS. A change that pulls more into the first load (the
 * customer area, a chart, the carousel library, a form schema, the data router) fails here; docs/web.md says how to
 * stay inside. `npm run bench:web` measures the same page as Lighthouse sees it, response headers included (about
 * 1 kB a request), against the goals of 90 kB of JavaScript and 200 kB in all.
 */
const HOME_BUDGET = { scriptBytes: 90_000, stylesheetBytes: 10_000 } as const;

/** Code no public page may load before it shows (the route tables of those areas are fine: they are only lists). */
const NOT_ON_PUBLIC_PAGES = [
  { what: 'the customer area', test: (module: string) => /^src\/features\/account\/(?!routes\.tsx$)/.test(module) },
  { what: 'the admin area', test: (module: string) => /^src\/features\/admin\/(?!routes\.tsx$)/.test(module) },
  { what: 'the audit screens and their chart', test: (module: string) => /^src\/features\/audit\/(?!routes\.tsx$)/.test(module) },
];
/**
 * And on the public site proper: not before a form is used (contact, careers), and not at all elsewhere. The sign-in,
 * sign-up and password pages sit under the query cache (app/router.tsx); their forms load their schemas on first use.
 */
/** zod and the domain's schemas; the domain's plain limits (`@bank/domain/limits`, no zod) may load anywhere. */
const SCHEMAS = {
  what: 'the domain schemas',
  test: (module: string) => (module.startsWith('../domain/') && !module.endsWith('/limits.ts')) || module.includes('node_modules/zod/'),
};
const NOT_ON_SITE_PAGES = [
  // Its stylesheet is fine: the static slides are laid out with Swiper's own classes.
  { what: 'the carousel library', test: (module: string) => /node_modules\/swiper\/.*\.m?js$/.test(module) },
  { what: 'the query cache', test: (module: string) => module.includes('node_modules/@tanstack/') },
  SCHEMAS,
];
const AUTH_PAGES = new Set(['/signin', '/signup', '/forgot-password']);

function brotliBytes(file: string): number {
  const compressed = path.join(dist, `${file}.br`);
  // The compression plugin skips files its brotli copy would not shrink; those go as they are.
  return existsSync(compressed) ? statSync(compressed).size : statSync(path.join(dist, file)).size;
}

describe('the size budget of the public pages (web/dist)', () => {
  let reports: PublicPageReport[];
  beforeAll(async () => {
    await ensureWebBuild();
    reports = JSON.parse(readFileSync(path.join(dist, '.vite/public-pages.json'), 'utf8')) as PublicPageReport[];
  });

  it('the home page loads at most the budgeted JavaScript and CSS, compressed', () => {
    const home = reports.find((report) => report.path === '/')!;
    const scriptBytes = home.scripts.reduce((sum, file) => sum + brotliBytes(file), 0);
    const stylesheetBytes = home.stylesheets.reduce((sum, file) => sum + brotliBytes(file), 0);
    console.log(`home page: ${scriptBytes} B of JavaScript, ${stylesheetBytes} B of CSS (brotli), ${brotliBytes(home.html)} B of HTML`);
    expect(scriptBytes).toBeLessThanOrEqual(HOME_BUDGET.scriptBytes);
    expect(stylesheetBytes).toBeLessThanOrEqual(HOME_BUDGET.stylesheetBytes);
  });

  it('no public page loads the customer area, the admin area or the audit screens', () => {
    for (const report of reports) {
      for (const rule of NOT_ON_PUBLIC_PAGES) expect(report.modules.filter(rule.test), `${report.path} loads ${rule.what}`).toEqual([]);
    }
  });

  it('the site pages load neither the carousel library, the query cache nor the schemas before they show', () => {
    for (const report of reports.filter((page) => !AUTH_PAGES.has(page.path))) {
      for (const rule of NOT_ON_SITE_PAGES) expect(report.modules.filter(rule.test), `${report.path} loads ${rule.what}`).toEqual([]);
    }
  });

  it('the sign-in and sign-up pages load the schemas only once their form is used', () => {
    for (const report of reports.filter((page) => page.path === '/signin' || page.path === '/signup')) {
      expect(report.modules.filter(SCHEMAS.test), `${report.path} loads ${SCHEMAS.what}`).toEqual([]);
    }
  });
});

describe('compressed, cached delivery by the real server', () => {
  const get = (url: string, encoding = 'br, gzip') => fetch(`${inject('baseUrl')}${url}`, { headers: { 'Accept-Encoding': encoding } });

  it('sends pages brotli-compressed and no-cache, hashed assets immutable for a year', async () => {
    const page = await get('/about');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = await page.text();
    expect(html).toContain('<link rel="canonical" href=');
    const script = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
    expect(script).toMatch(/^\/assets\/index-[\w-]+\.js$/);

    const asset = await get(script!, 'gzip');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-encoding')).toBe('gzip');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('serves robots.txt and sitemap.xml', async () => {
    const robots = await (await get('/robots.txt')).text();
    expect(robots).toContain('Disallow: /admin');
    expect(robots).toMatch(/^Sitemap: https?:\/\/\S+\/sitemap\.xml$/m);
    const sitemap = await (await get('/sitemap.xml')).text();
    expect(sitemap).toContain('/account/savings</loc>');
    expect(sitemap).not.toContain('/account/home');
  });
});
