/** The HTML and text a build writes for crawlers (publicPagesPlugin): plain functions, tested on their own. */

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => escapes[character]!);
}

export interface PageHeadInput {
  readonly title: string;
  readonly description: string;
  /** The page's absolute URL (canonical, og:url). */
  readonly url: string;
  readonly siteName: string;
  /** Scripts the page needs beyond the entry's (modulepreload). */
  readonly preloadScripts: readonly string[];
  /** Stylesheets of the page's chunks. */
  readonly stylesheets: readonly string[];
}

/** A public page's HTML: the shell's title and description replaced by the page's, with its links and preloads. */
export function pageHtml(shell: string, input: PageHeadInput): string {
  const title = escapeHtml(input.title);
  const description = escapeHtml(input.description);
  const url = escapeHtml(input.url);
  const head = [
    `<title>${title}</title>`,
    `<meta name="description" content="${description}" />`,
    `<link rel="canonical" href="${url}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${escapeHtml(input.siteName)}" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:url" content="${url}" />`,
    `<meta property="og:locale" content="en_US" />`,
    `<meta name="twitter:card" content="summary" />`,
    ...input.stylesheets.map((href) => `<link rel="stylesheet" crossorigin href="${escapeHtml(href)}" />`),
    ...input.preloadScripts.map((href) => `<link rel="modulepreload" crossorigin href="${escapeHtml(href)}" />`),
  ].join('\n    ');
  const withoutDescription = shell.replace(/\s*<meta name="description"[^>]*>/, '');
  if (!/<title>[^<]*<\/title>/.test(withoutDescription)) throw new Error('The app shell has no <title> to replace');
  return withoutDescription.replace(/<title>[^<]*<\/title>/, () => head);
}

/**
 * robots.txt: everything allowed but the `disallowed` path prefixes, except the public pages that lie under one of
 * them (/account/savings under /account); and where the sitemap is.
 */
export function robotsTxt({ siteUrl, disallowed, allowed }: { siteUrl: string; disallowed: readonly string[]; allowed: readonly string[] }): string {
  const exceptions = allowed.filter((page) => disallowed.some((prefix) => page.startsWith(prefix)));
  return [
    'User-agent: *',
    ...exceptions.map((page) => `Allow: ${page}$`),
    ...disallowed.map((prefix) => `Disallow: ${prefix}`),
    '',
    `Sitemap: ${new URL('/sitemap.xml', siteUrl).href}`,
    '',
  ].join('\n');
}

/** sitemap.xml (sitemaps.org protocol 0.9) of absolute page URLs. */
export function sitemapXml(urls: readonly string[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls.map((url) => `  <url><loc>${escapeHtml(url)}</loc></url>`),
    '</urlset>',
    '',
  ].join('\n');
}
