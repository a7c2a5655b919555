import { buildAchFile, importIncomingFile, importReturnsFile } from '@bank/ach';
import { NachaFormatError } from '@bank/domain';
import { ACH_QUEUE, bullPrefix, queueAchTransmission } from '@bank/transfers';
import { Queue } from 'bullmq';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { readPoolOf, type AppDeps } from '../../appDeps';
import { requireAuth } from '../../auth/requireAuth';
import { requireRole } from '../../auth/requireRole';
import { BadRequestError, NotFoundError } from '../../http/httpErrors';
import { pageOf, pageRequest, type PageSize } from '../../http/keysetPage';
import { pathParam } from '../../http/pathParam';
import { sendCommandResult } from '../../http/sendCommandResult';
import { achCycleOf, booksOf } from '../businessDate/appBooks';
import { achFileKey, queryAchFile, queryAchFiles, queryAchFileText } from './achFilesQuery';

/** The routes whose body is a NACHA file (text/plain): the app-wide JSON parser leaves them to this router. */
export const ACH_UPLOAD_PATHS = ['/admin/ach/returns', '/admin/ach/incoming'] as const;

export function isAchUploadRequest(req: Pick<Request, 'method' | 'path'>): boolean {
  return req.method === 'POST' && (ACH_UPLOAD_PATHS as readonly string[]).includes(req.path.toLowerCase().replace(/\/+$/, ''));
}

const FILES_PAGE: PageSize = { defaultLimit: 50, maxLimit: 500 };
/** A NACHA file of 10 MB holds over 100,000 records. */
const NACHA_BODY_LIMIT = '10mb';

/** The NACHA text of the request (text/plain), 400 for another type or an empty body. */
const nachaBody: RequestHandler[] = [
  express.text({ type: () => true, limit: NACHA_BODY_LIMIT }),
  (req, _res, next) => {
    if (!req.is('text/plain')) return next(new BadRequestError('The body must be a NACHA file (Content-Type: text/plain)'));
    if (typeof req.body !== 'string' || req.body.trim() === '') return next(new BadRequestError('The body must be a NACHA file (Content-Type: text/plain)'));
    next();
  },
];

/** A malformed file: 400 naming its first bad line; nothing was applied (the file is parsed whole first). */
function asBadRequest(error: unknown): unknown {
  return error instanceof NachaFormatError ? new BadRequestError(error.message) : error;
}

/**
 * ACH (API.md, "ACH (external transfers)"; docs/ach.md):
 *   POST /admin/ach/files                (admin) a file now from every waiting entry: 201 with it, or 200 'No entries waiting'
 *   GET  /admin/ach/files                (admin, auditor) paged, newest first
 *   GET  /admin/ach/files/:id            (admin, auditor) the file with its entries
 *   GET  /admin/ach/files/:id/download   (admin, auditor) the NACHA text as built
 *   POST /admin/ach/returns              (admin) a returns file (text/plain)
 *   POST /admin/ach/incoming             (admin) an incoming file (text/plain)
 * A file built here is transmitted by the worker at once (the job `transmit-<fileId>` this router queues).
 */
export function createAchRouter(deps: AppDeps): Router {
  const router = Router();
  const auth = requireAuth(deps);
  const readers = [auth, requireRole('admin', 'auditor')];
  const admin = [auth, requireRole('admin')];
  const cycle = () => achCycleOf(deps, () => booksOf(deps).calendar.current());
  let queue: Queue | undefined;
  const achQueue = (): Queue => {
    if (queue) return queue;
    queue = new Queue(ACH_QUEUE, { connection: deps.redis, prefix: bullPrefix(deps.config.REDIS_PREFIX) });
    // The shared connection's errors are reported where it is watched (watchRedis); unheard, the queue's
    // re-emitted 'error' would end the process.
    queue.on('error', () => undefined);
    return queue;
  };

  router.post('/admin/ach/files', ...admin, async (_req: Request, res: Response) => {
    const file = await buildAchFile(cycle());
    if (!file) {
      res.status(200).json({ data: null, message: 'No entries waiting' });
      return;
    }
    await sendCommandResult(res, 201, async () => ({ data: await queryAchFile(deps.pool, file.fileId) }), file.position);
    // Transmitted now by the worker, not at its next look: the answer shows the file as built (`created`), and the
    // job follows it. Should Redis be unreachable, the worker's tick queues the job later (the file is recorded).
    try {
      await queueAchTransmission(achQueue(), file.fileId, deps.transfers.achJobs);
    } catch (error) {
      deps.logger.warn({ err: error, fileId: file.fileId }, 'ACH transmission not queued; the worker queues it at its next look');
    }
  });

  router.get('/admin/ach/files', ...readers, async (req: Request, res: Response) => {
    const { limit, after } = pageRequest(req, achFileKey, FILES_PAGE);
    const page = pageOf(await queryAchFiles(readPoolOf(deps), limit + 1, after), limit, (row) => row.key);
    res.json({ data: page.rows.map((row) => row.json), next: page.next });
  });

  router.get('/admin/ach/files/:id', ...readers, async (req: Request, res: Response) => {
    const file = await queryAchFile(readPoolOf(deps), pathParam(req, 'id'));
    if (!file) throw new NotFoundError('ACH file not found');
    res.json({ data: file });
  });

  router.get('/admin/ach/files/:id/download', ...readers, async (req: Request, res: Response) => {
    const file = await queryAchFileText(readPoolOf(deps), pathParam(req, 'id'));
    if (!file) throw new NotFoundError('ACH file not found');
    res.type('text/plain; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${file.name}"`);
    res.send(file.content);
  });

  router.post('/admin/ach/returns', ...admin, ...nachaBody, async (req: Request, res: Response) => {
    const result = await importReturnsFile(cycle(), req.body as string).catch((error: unknown) => {
      throw asBadRequest(error);
    });
    await sendCommandResult(res, 200, { data: result }, await deps.store.headPosition());
  });

  router.post('/admin/ach/incoming', ...admin, ...nachaBody, async (req: Request, res: Response) => {
    const result = await importIncomingFile(cycle(), req.body as string).catch((error: unknown) => {
      throw asBadRequest(error);
    });
    await sendCommandResult(res, 200, { data: result }, await deps.store.headPosition());
  });
  return router;
}
