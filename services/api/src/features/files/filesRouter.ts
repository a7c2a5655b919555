import { Router } from 'express';
import { pathParam } from '../../http/pathParam';
import type { AppDeps } from '../../appDeps';
import { authOf, isStaff } from '../../auth/authContext';
import { requireAuth } from '../../auth/requireAuth';
import { NotFoundError } from '../../http/httpErrors';
import { fileInfo, readFileBytes } from './fileStore';
import { isUuid } from '@bank/platform';

export const FILE_NOT_FOUND_MESSAGE = 'File not found';

/**
 * GET /files/:id: a stored image, to a user who uploaded it and to staff. Anyone else gets the same 404 as for an
 * unknown id (not 403), so that the answer does not tell whether a file with that id exists.
 */
export function createFilesRouter(deps: AppDeps): Router {
  const router = Router();
  router.get('/files/:id', requireAuth(deps), async (req, res) => {
    const auth = authOf(req);
    const id = pathParam(req, 'id');
    if (!isUuid(id)) throw new NotFoundError(FILE_NOT_FOUND_MESSAGE);
    const info = await fileInfo(deps.pool, id, auth.userId);
    if (!info) throw new NotFoundError(FILE_NOT_FOUND_MESSAGE);
    if (!isStaff(auth.role) && !info.uploadedByUser) throw new NotFoundError(FILE_NOT_FOUND_MESSAGE);
    const bytes = await readFileBytes(deps.pool, id);
    if (!bytes) throw new NotFoundError(FILE_NOT_FOUND_MESSAGE);
    res.setHeader('Content-Type', info.mime);
    res.setHeader('Cache-Control', 'private, max-age=31536000, immutable');
    res.setHeader('ETag', `"${info.sha256}"`);
    res.setHeader('Content-Disposition', 'inline');
    res.end(bytes);
  });
  return router;
}
