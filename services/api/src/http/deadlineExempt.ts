import type { Request } from 'express';
import { isUploadRequest } from '../features/users/usersRouter';

/**
 * The requests the request deadline leaves alone: the work an operator or an auditor starts knowing it takes long —
 * uploads, the audit's replays, exports and verification, a business-date advance (one close of business per day,
 * up to 366), the ACH file cycle (building a file, importing returns or incoming credits) — and downloads
 * (`format=csv|pdf`), which stream as they are written.
 */
export function deadlineExempt(req: Pick<Request, 'method' | 'path' | 'query'>): boolean {
  const path = req.path.toLowerCase().replace(/\/+$/, '');
  return (
    isUploadRequest(req) ||
    path.startsWith('/audit/') ||
    path.startsWith('/admin/ach/') ||
    path === '/admin/business-date/advance' ||
    typeof req.query.format === 'string'
  );
}
