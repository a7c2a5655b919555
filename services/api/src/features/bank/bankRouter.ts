import { bankIdentity } from '@bank/domain';
import { Router, type Request, type Response } from 'express';
import type { AppDeps } from '../../appDeps';

/** The bank's public identity as GET /bank answers it: the routing number is configuration (BANK_ROUTING_NUMBER). */
export interface BankInfo {
  readonly name: string;
  readonly routingNumber: string;
  /** One line, as a letter's header or a mail's footer prints it: "1200 Summit Plaza, Denver, CO 80202, United States". */
  readonly address: string;
  /** The same address, line by line. */
  readonly addressLines: readonly string[];
  readonly phone: string;
  readonly email: string;
}

export function bankInfo(routingNumber: string): BankInfo {
  return {
    name: bankIdentity.name,
    routingNumber,
    address: bankIdentity.address.join(', '),
    addressLines: [...bankIdentity.address],
    phone: bankIdentity.phone,
    email: bankIdentity.email,
  };
}

/** GET /bank (public): `{data: {name, routingNumber, address, addressLines, phone, email}}`. */
export function createBankRouter(deps: AppDeps): Router {
  const router = Router();
  const info = bankInfo(deps.config.BANK_ROUTING_NUMBER);
  router.get('/bank', (_req: Request, res: Response) => {
    res.set('Cache-Control', 'public, max-age=300');
    res.json({ data: info });
  });
  return router;
}
