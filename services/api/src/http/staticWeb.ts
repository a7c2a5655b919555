import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';

/** Serves the production build of web/ at / with the SPA fallback: every non-/api GET gets index.html. */
export function staticWeb(distDir: string): Router {
  const router = express.Router();
  const indexHtml = path.join(distDir, 'index.html');
  router.use(express.static(distDir, { index: false, maxAge: '1h', setHeaders: (res, file) => {
    if (file.includes(`${path.sep}assets${path.sep}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  } }));
  router.get(/^(?!\/api(\/|$)).*/, (_req, res, next) => {
    if (!existsSync(indexHtml)) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(indexHtml);
  });
  return router;
}
