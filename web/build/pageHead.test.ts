import { describe, expect, it } from 'vitest';
import { escapeHtml, pageHtml, robotsTxt, sitemapXml } from './pageHead';

const shell = `<!doctype html>
<html lang="en">
  <head>
    <meta name="description" content="The bank." />
    <title>Summit Bank</title>
    <script type="module" crossorigin src="/assets/index-1.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>`;

describe('pageHtml', () => {
  const html = pageHtml(shell, {
    title: 'About Us · Summit Bank',
    description: 'Our "mission" & vision',
    url: 'https://www.summitbank.example/about',
    siteName: 'Summit Bank',
    preloadScripts: ['/assets/AboutPage-1.js'],
    stylesheets: ['/assets/AboutPage-1.css'],
  });

  it('replaces the title and the description, once each, escaping them', () => {
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).toContain('<title>About Us · Summit Bank</title>');
    expect(html.match(/name="description"/g)).toHaveLength(1);
    expect(html).toContain('<meta name="description" content="Our &quot;mission&quot; &amp; vision" />');
  });

  it('links the canonical URL and the Open Graph tags', () => {
    expect(html).toContain('<link rel="canonical" href="https://www.summitbank.example/about" />');
    expect(html).toContain('<meta property="og:url" content="https://www.summitbank.example/about" />');
    expect(html).toContain('<meta property="og:title" content="About Us · Summit Bank" />');
    expect(html).toContain('<meta property="og:type" content="website" />');
  });

  it("preloads the page's code and styles ahead of the app's script", () => {
    expect(html.indexOf('rel="modulepreload" crossorigin href="/assets/AboutPage-1.js"')).toBeGreaterThan(0);
    expect(html.indexOf('/assets/AboutPage-1.js')).toBeLessThan(html.indexOf('/assets/index-1.js'));
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/AboutPage-1.css" />');
  });

  it('refuses a shell without a title', () => {
    expect(() => pageHtml('<html><head></head></html>', { title: 't', description: 'd', url: 'https://x.example/', siteName: 's', preloadScripts: [], stylesheets: [] })).toThrow(/no <title>/);
  });
});

describe('robotsTxt', () => {
  const robots = robotsTxt({
    siteUrl: 'https://www.summitbank.example',
    disallowed: ['/account', '/admin', '/api'],
    allowed: ['/', '/about', '/account/savings', '/account/checking'],
  });

  it('disallows the private prefixes but allows the public pages beneath them, and names the sitemap', () => {
    expect(robots.split('\n')).toEqual([
      'User-agent: *',
      'Allow: /account/savings$',
      'Allow: /account/checking$',
      'Disallow: /account',
      'Disallow: /admin',
      'Disallow: /api',
      '',
      'Sitemap: https://www.summitbank.example/sitemap.xml',
      '',
    ]);
  });
});

describe('sitemapXml', () => {
  it('lists each absolute URL once, escaped', () => {
    const xml = sitemapXml(['https://a.example/', 'https://a.example/x?a=1&b=2']);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(xml).toContain('<url><loc>https://a.example/</loc></url>');
    expect(xml).toContain('<url><loc>https://a.example/x?a=1&amp;b=2</loc></url>');
  });

  it('escapeHtml escapes the five HTML specials', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
