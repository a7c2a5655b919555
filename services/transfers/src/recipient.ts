import type { CommandHandler } from '@bank/commands';
import { accountNumberReservationDecider, customerDecider, isAccountNumber, streams, type CustomerState, type TransferRecipient } from '@bank/domain';
import type pg from 'pg';

export interface RecipientDeps {
  readonly commands: CommandHandler;
  /** The read models: rm.users (a number not reserved), rm.beneficiaries (external recipients' names). */
  readonly pool: pg.Pool;
}

/**
 * The open customer of this bank who holds an account number, by the bank's own records — found through the
 * account-number reservation (read up to date: a number released and taken by someone else must route to its new
 * holder), else rm.users (numbers from before reservations), and confirmed on the customer's own stream. Both the
 * transfer and the recipient look-up of the transfer form ask this, so the name the form shows is the one credited.
 *
 * The customer is first looked at as this process last saw it and read up to date only when that does not confirm
 * the number: the fresh reservation already vouches that the customer holds it, and a customer closed since is
 * refused by the credit itself (the transfer fails and is refunded), so a confirming cached state never misroutes.
 */
export async function findInternalPayee(deps: RecipientDeps, accountNumber: string): Promise<{ readonly payeeId: string; readonly name: string } | undefined> {
  const number = accountNumber.trim();
  if (!isAccountNumber(number)) return undefined;
  const heldBy = await deps.commands.read(accountNumberReservationDecider, streams.accountNumber(number), (state) => state.heldBy ?? undefined);
  const candidates = heldBy
    ? [heldBy]
    : (await deps.pool.query<{ id: string }>('SELECT id FROM rm.users WHERE account_number = $1 AND NOT is_closed', [number])).rows.map((row) => row.id);
  for (const userId of candidates) {
    const holder = (state: CustomerState) => (state.status === 'active' && state.accountNumber === number ? `${state.firstName} ${state.lastName}`.trim() : undefined);
    const payee =
      (await deps.commands.read(customerDecider, streams.customer(userId), holder, { fresh: false })) ??
      (await deps.commands.read(customerDecider, streams.customer(userId), holder));
    if (payee !== undefined) return { payeeId: userId, name: payee };
  }
  return undefined;
}

/**
 * Who a transfer goes to: an open customer of this bank is internal whatever `bankName` says (findInternalPayee);
 * anyone else is external, named by the beneficiary directory or else by the form's `to`.
 */
export async function resolveRecipient(deps: RecipientDeps, accountNumber: string | undefined, to: string | undefined): Promise<TransferRecipient> {
  const number = accountNumber?.trim();
  if (!number) return { kind: 'external', name: to };
  const payee = await findInternalPayee(deps, number);
  if (payee) return { kind: 'internal', ...payee };
  const { rows } = await deps.pool.query<{ name: string }>(
    'SELECT name FROM rm.beneficiaries WHERE account_number = $1 AND removed_at IS NULL ORDER BY created_at DESC LIMIT 1',
    [number],
  );
  return { kind: 'external', name: rows[0]?.name ?? to };
}
