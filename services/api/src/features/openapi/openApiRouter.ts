import { Router } from 'express';
import { buildOpenApiDocument } from './openApiDocument';

/** GET /openapi.json. */
export function createOpenApiRouter(): Router {
  const router = Router();
  let document: unknown;
  router.get('/openapi.json', (_req, res) => {
    document ??= buildOpenApiDocument();
    res.json(document);
  });
  return router;
}
