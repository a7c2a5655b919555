import { createRequire } from 'node:module';
import path from 'node:path';
import express, { Router } from 'express';

const require = createRequire(import.meta.url);
const swaggerUiDist = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/** The files of swagger-ui-dist the page loads; nothing else of the package is served. */
const ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png', 'favicon-16x16.png']);

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="robots" content="noindex">
  <title>Bank API — reference</title>
  <link rel="stylesheet" href="/api/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/api/docs/swagger-ui-bundle.js"></script>
  <script src="/api/docs/swagger-ui-standalone-preset.js"></script>
  <script src="/api/docs/start.js"></script>
</body>
</html>
`;

// An external script, not an inline one: the Content-Security-Policy (helmet) allows scripts from 'self' only.
const START = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
});
`;

/**
 * GET /docs: the OpenAPI document (/api/openapi.json) browsable with Swagger UI, served from the swagger-ui-dist
 * package (no CDN), with the page and its start script as our own files so that no inline script is needed.
 */
export function createApiDocsRouter(): Router {
  const router = Router();
  router.get(['/docs', '/docs/'], (_req, res) => {
    res.type('html').set('Cache-Control', 'no-cache').send(PAGE);
  });
  router.get('/docs/start.js', (_req, res) => {
    res.type('application/javascript').set('Cache-Control', 'no-cache').send(START);
  });
  const assets = express.static(swaggerUiDist, { index: false, maxAge: '1d', fallthrough: false });
  router.use('/docs', (req, res, next) => {
    if (!ASSETS.has(req.path.replace(/^\//, ''))) return next();
    assets(req, res, next);
  });
  return router;
}
