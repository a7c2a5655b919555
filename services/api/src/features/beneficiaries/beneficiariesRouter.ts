import { randomUUID } from 'node:crypto';
import { deterministicId } from '@bank/commands';
import { beneficiaryDirectoryDecider, beneficiaryInput, DomainError, streams } from '@bank/domain';
import { Router, type Request } from 'express';
import { pathParam } from '../../http/pathParam';
import { readPoolOf, type AppDeps } from '../../appDeps';
import { authOf } from '../../auth/authContext';
import { requireAuth } from '../../auth/requireAuth';
import { requireRole } from '../../auth/requireRole';
import { nowIso } from '../../commands/clock';
import { commandScope, runCommand } from '../../commands/runCommand';
import { invalidField } from '../../http/httpErrors';
import { createRateLimiter } from '../../http/rateLimiter';
import { sendCommandResult } from '../../http/sendCommandResult';
import { pageOf, pageRequest, type PageSize } from '../../http/keysetPage';
import { beneficiaryKey, listBeneficiaries, lookUpAccount } from './beneficiaryQueries';
import { isUuid } from '@bank/platform';

export const BENEFICIARY_ADDED_MESSAGE = 'Beneficiary added successfully';
export const BENEFICIARY_DELETED_MESSAGE = 'Beneficiary deleted';
export const BENEFICIARY_NOT_FOUND_MESSAGE = 'Beneficiary not found';
export const TOO_MANY_LOOKUPS_MESSAGE = 'Too many account look-ups, please wait a moment';
export const BENEFICIARY_PAGE: PageSize = { defaultLimit: 100, maxLimit: 500 };
export const LOOKUP_NUMBER_MESSAGE = 'Account number must be 4 to 17 digits';

function lookupNumber(req: Request): string | undefined {
  const value = req.query.accountNumber;
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d{4,17}$/.test(value.trim())) throw invalidField('accountNumber', LOOKUP_NUMBER_MESSAGE);
  return value.trim();
}

/**
 * GET /beneficiaries: the directory (paged {data, next}); with ?accountNumber the recipient look-up (rate limited per user).
 * POST /beneficiaries and DELETE /beneficiaries/:id: admin.
 */
export function createBeneficiariesRouter(deps: AppDeps): Router {
  const router = Router();
  const lookupLimit = createRateLimiter(deps, {
    name: 'lookup',
    limit: deps.limits.accountLookup,
    key: 'user',
    message: TOO_MANY_LOOKUPS_MESSAGE,
    skip: (req) => req.query.accountNumber === undefined,
  });

  router.get('/beneficiaries', requireAuth(deps), requireRole('customer', 'admin'), lookupLimit, async (req, res) => {
    const accountNumber = lookupNumber(req);
    if (accountNumber !== undefined) {
      res.json({ data: await lookUpAccount(deps, accountNumber) });
      return;
    }
    const { limit, after } = pageRequest(req, beneficiaryKey, BENEFICIARY_PAGE);
    const page = pageOf(await listBeneficiaries(readPoolOf(deps), { limit: limit + 1, after }), limit, (row) => row.key);
    res.json({ data: page.rows.map((row) => row.beneficiary), next: page.next });
  });

  router.post('/beneficiaries', requireAuth(deps), requireRole('admin'), async (req, res) => {
    const input = beneficiaryInput.parse(req.body);
    const scope = commandScope(req, res);
    const beneficiaryId = scope.commandId ? deterministicId(`${scope.commandId}:beneficiary`) : randomUUID();
    const result = await runCommand(deps, scope, {
      decider: beneficiaryDirectoryDecider,
      streamId: streams.beneficiaries(),
      command: { type: 'AddBeneficiary', beneficiaryId, ...input, adminId: authOf(req).userId, now: nowIso(deps) },
    });
    const added = result.state.beneficiaries.get(beneficiaryId);
    const data = added && { _id: added.beneficiaryId, name: added.name, accountNumber: added.accountNumber, ...(added.bankName ? { bankName: added.bankName } : {}) };
    await sendCommandResult(res, 201, { message: BENEFICIARY_ADDED_MESSAGE, data }, result.position);
  });

  router.delete('/beneficiaries/:id', requireAuth(deps), requireRole('admin'), async (req, res) => {
    const id = pathParam(req, 'id');
    if (!isUuid(id)) throw new DomainError('not_found', BENEFICIARY_NOT_FOUND_MESSAGE);
    const result = await runCommand(deps, commandScope(req, res), {
      decider: beneficiaryDirectoryDecider,
      streamId: streams.beneficiaries(),
      command: { type: 'RemoveBeneficiary', beneficiaryId: id, adminId: authOf(req).userId, now: nowIso(deps) },
    });
    await sendCommandResult(res, 200, { message: BENEFICIARY_DELETED_MESSAGE }, result.position);
  });
  return router;
}
