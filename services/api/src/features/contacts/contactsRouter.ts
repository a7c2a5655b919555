import { randomUUID } from 'node:crypto';
import { deterministicId } from '@bank/commands';
import { contactInput, contactMessageDecider, DomainError, isBotSubmission, streams } from '@bank/domain';
import { Router } from 'express';
import { pathParam } from '../../http/pathParam';
import { readPoolOf, type AppDeps } from '../../appDeps';
import { authOf } from '../../auth/authContext';
import { requireAuth } from '../../auth/requireAuth';
import { requireRole } from '../../auth/requireRole';
import { nowIso } from '../../commands/clock';
import { commandScope, runCommand } from '../../commands/runCommand';
import { createRateLimiter } from '../../http/rateLimiter';
import { sendCommandResult } from '../../http/sendCommandResult';
import { pageOf, pageRequest, type PageSize } from '../../http/keysetPage';
import { contactKey, listContacts } from './contactQueries';
import { isUuid } from '@bank/platform';

export const CONTACT_RECEIVED_MESSAGE = 'Thank you for your message, we will get back to you soon';
export const CONTACT_DELETED_MESSAGE = 'Contact deleted';
export const CONTACT_NOT_FOUND_MESSAGE = 'Contact message not found';
export const CONTACT_PAGE: PageSize = { defaultLimit: 100, maxLimit: 500 };
export const TOO_MANY_CONTACTS_MESSAGE = 'Too many messages sent from this address, please try again later';

/** POST /contacts (public, with the hidden `website` bot field); GET /contacts (admin, paged {data, next}) and
 * DELETE /contacts/:id (admin). */
export function createContactsRouter(deps: AppDeps): Router {
  const router = Router();
  const limit = createRateLimiter(deps, { name: 'contact', limit: deps.limits.contact, key: 'ip', message: TOO_MANY_CONTACTS_MESSAGE });

  router.post('/contacts', limit, async (req, res) => {
    // A bot fills the hidden field: it is told "thank you" and nothing is stored (checked before validation).
    if (isBotSubmission(req.body)) {
      res.status(201).json({ message: CONTACT_RECEIVED_MESSAGE });
      return;
    }
    const input = contactInput.parse(req.body);
    const scope = commandScope(req, res);
    const contactId = scope.commandId ? deterministicId(`${scope.commandId}:contact`) : randomUUID();
    const result = await runCommand(deps, scope, {
      decider: contactMessageDecider,
      streamId: streams.contact(contactId),
      command: { type: 'ReceiveContactMessage', contactId, ...input, now: nowIso(deps) },
    });
    await sendCommandResult(res, 201, { message: CONTACT_RECEIVED_MESSAGE }, result.position);
  });

  router.get('/contacts', requireAuth(deps), requireRole('admin'), async (req, res) => {
    const { limit, after } = pageRequest(req, contactKey, CONTACT_PAGE);
    const page = pageOf(await listContacts(readPoolOf(deps), { limit: limit + 1, after }), limit, (row) => row.key);
    res.json({ data: page.rows.map((row) => row.contact), next: page.next });
  });

  router.delete('/contacts/:id', requireAuth(deps), requireRole('admin'), async (req, res) => {
    const id = pathParam(req, 'id');
    if (!isUuid(id)) throw new DomainError('not_found', CONTACT_NOT_FOUND_MESSAGE);
    const result = await runCommand(deps, commandScope(req, res), {
      decider: contactMessageDecider,
      streamId: streams.contact(id),
      command: { type: 'DeleteContactMessage', adminId: authOf(req).userId, now: nowIso(deps) },
    });
    await sendCommandResult(res, 200, { message: CONTACT_DELETED_MESSAGE }, result.position);
  });
  return router;
}
