import path from 'node:path';
import type { OutputAsset, OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';
import { disallowedPaths, documentTitle, publicPages, SITE_NAME, type PublicPage } from '../src/features/public/publicPages';
import { pageHtml, robotsTxt, sitemapXml } from './pageHead';

function isChunk(output: OutputAsset | OutputChunk | undefined): output is OutputChunk {
  return output?.type === 'chunk';
}

/** A chunk's file and, depth first, the files of the chunks it imports statically, with their CSS and modules. */
function staticClosure(bundle: OutputBundle, fileName: string, seen = new Set<string>()): { js: string[]; css: string[]; modules: string[] } {
  const js: string[] = [];
  const css: string[] = [];
  const modules: string[] = [];
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const chunk = bundle[name];
    if (!isChunk(chunk)) return;
    js.push(name);
    css.push(...(chunk.viteMetadata?.importedCss ?? []));
    modules.push(...chunk.moduleIds);
    chunk.imports.forEach(visit);
  };
  visit(fileName);
  return { js, css, modules };
}

/**
 * What each public page loads before it shows, written to `.vite/public-pages.json` (not served: the server skips
 * dot-folders) for the size budget test (web/e2e/sizeBudget.e2e.test.ts).
 */
export interface PublicPageReport {
  readonly path: string;
  readonly html: string;
  readonly scripts: readonly string[];
  readonly stylesheets: readonly string[];
  /** Every source module in those scripts, relative to web/ (node_modules paths as they are). */
  readonly modules: readonly string[];
}

/**
 * Writes, next to the app shell (index.html), one HTML file per public page (`pages/about/index.html`,
 * `pages/index.html` for /) carrying that page's title, description, canonical link and Open Graph tags and
 * preloading its code and styles, so the browser fetches them with the app's script instead of after it; plus
 * robots.txt and sitemap.xml. The server answers each public path with its page's file (services/api
 * http/staticWeb.ts). The shell, for every other path (the customer and staff areas, Not Found), is marked noindex.
 */
export function publicPagesPlugin({ siteUrl, srcDir }: { siteUrl: string; srcDir: string }): Plugin {
  return {
    name: 'bank:public-pages',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const shell = bundle['index.html'];
      if (!shell || shell.type !== 'asset') this.error('index.html is missing from the bundle');
      const html = String(shell.source);
      const entry = Object.values(bundle).find((output): output is OutputChunk => isChunk(output) && output.isEntry);
      if (!entry) this.error('the entry chunk is missing from the bundle');
      const entryClosure = staticClosure(bundle, entry.fileName);
      const entryCss = new Set(entryClosure.css);

      const chunkOf = (page: PublicPage, module: string) => {
        const id = path.join(srcDir, module);
        const chunks = Object.values(bundle).filter((output): output is OutputChunk => isChunk(output));
        // A lazy page's own chunk, or the group chunk (vite.config.ts) that took the page's module in.
        const chunk = chunks.find((output) => output.facadeModuleId === id) ?? chunks.find((output) => id in output.modules);
        if (!chunk) this.error(`publicPages: no chunk for ${module} (${page.path}); is it loaded with lazyPage()?`);
        return chunk;
      };

      const webDir = path.dirname(srcDir);
      const reports: PublicPageReport[] = [];
      for (const page of publicPages) {
        const seen = new Set(entryClosure.js);
        const closure = { js: [] as string[], css: [] as string[], modules: [] as string[] };
        for (const module of page.modules) {
          const part = staticClosure(bundle, chunkOf(page, module).fileName, seen);
          closure.js.push(...part.js);
          closure.css.push(...part.css.filter((file) => !entryCss.has(file)));
          closure.modules.push(...part.modules);
        }
        const source = pageHtml(html, {
          title: documentTitle(page.title),
          description: page.description,
          url: new URL(page.path, siteUrl).href,
          siteName: SITE_NAME,
          preloadScripts: closure.js.map((file) => `/${file}`),
          stylesheets: [...new Set(closure.css)].map((file) => `/${file}`),
        });
        const fileName = path.posix.join('pages', page.path, 'index.html');
        this.emitFile({ type: 'asset', fileName, source });
        reports.push({
          path: page.path,
          html: fileName,
          scripts: [...entryClosure.js, ...closure.js],
          stylesheets: [...new Set([...entryClosure.css, ...closure.css])],
          modules: [...entryClosure.modules, ...closure.modules].map((id) => (id.startsWith(webDir) ? path.relative(webDir, id) : id)),
        });
      }
      this.emitFile({ type: 'asset', fileName: '.vite/public-pages.json', source: JSON.stringify(reports, null, 1) });

      shell.source = html.replace(/<title>/, '<meta name="robots" content="noindex" />\n    <title>');
      this.emitFile({ type: 'asset', fileName: 'robots.txt', source: robotsTxt({ siteUrl, disallowed: disallowedPaths, allowed: publicPages.map((page) => page.path) }) });
      this.emitFile({ type: 'asset', fileName: 'sitemap.xml', source: sitemapXml(publicPages.map((page) => new URL(page.path, siteUrl).href)) });
    },
  };
}
