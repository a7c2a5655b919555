import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';
import expressStaticGzip from 'express-static-gzip';

/** Vite's content-hashed output: a changed file gets a new name, so a copy may be kept for a year. */
export const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';
/** Pages: kept, but revalidated (ETag) on every use, so a deployment is seen at once. */
export const PAGE_CACHE = 'no-cache';
/** Other files of web/public (robots.txt, sitemap.xml, favicon, the annual report): names that do not change. */
export const PUBLIC_FILE_CACHE = 'public, max-age=3600';

function cacheControlFor(file: string): string {
  const served = file.replace(/\.(br|gz)$/, '');
  if (served.endsWith('.html')) return PAGE_CACHE;
  if (served.includes(`${path.sep}assets${path.sep}`)) return HASHED_ASSET_CACHE;
  return PUBLIC_FILE_CACHE;
}

/**
 * The file a browser path gets: the build's own HTML for a public page when it wrote one (`dist/pages/about/
 * index.html` for /about: the page's title, description, canonical link and the preload of its code; see
 * web/build/publicPagesPlugin.ts), else the app shell `index.html`, whose client-side router shows the screen.
 */
function pageFor(distDir: string, urlPath: string): string {
  const segments = urlPath.split('/').filter(Boolean);
  if (segments.every((segment) => /^[a-z0-9-]+$/i.test(segment))) {
    const page = path.posix.join('/pages', ...segments, 'index.html');
    if (existsSync(path.join(distDir, page))) return page;
  }
  return '/index.html';
}

/**
 * Serves the production build of web/ at /: each file in the best encoding the client accepts (the build writes
 * brotli and gzip copies, see web/vite.config.ts), with the cache lifetimes above, and the SPA fallback — every
 * other non-/api GET gets its page's HTML. The set of precompressed files is read when the router is made, so
 * a rebuild while the server runs is served uncompressed until a restart.
 */
export function staticWeb(distDir: string): Router {
  const router = express.Router();
  const files = expressStaticGzip(distDir, {
    enableBrotli: true,
    orderPreference: ['br', 'gz'],
    index: false,
    // ETag alone revalidates a page; the other validators and range support are bytes on every response for nothing.
    serveStatic: {
      index: false,
      redirect: false,
      lastModified: false,
      acceptRanges: false,
      setHeaders: (res, file) => res.setHeader('Cache-Control', cacheControlFor(file)),
    },
  });
  router.use(files);
  router.get(/^(?!\/api(\/|$)).*/, (req, res, next) => {
    if (!existsSync(path.join(distDir, 'index.html'))) return next();
    req.url = pageFor(distDir, req.path);
    files(req, res, next);
  });
  return router;
}
