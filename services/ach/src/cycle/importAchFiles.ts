import { deterministicId } from '@bank/commands';
import {
  accountNumberReservationDecider,
  customerDecider,
  isAccountNumber,
  isDomainError,
  parseNachaFile,
  returnPayerCommands,
  returnRecordCommand,
  routingCheckDigit,
  streams,
  transactionCodes,
  type EntryDetail,
  type NachaFile,
  type ReturnReasonCode,
} from '@bank/domain';
import { findInternalPayee } from '@bank/transfers';
import { nowOf, onAchStream, readAchCycle, type AchCycleDeps } from './achCycleDeps';
import { onAccount, onTransfer, readTransferRecord } from './otherStreams';

export interface ReturnsImport {
  readonly applied: number;
  readonly alreadyApplied: number;
  /** The original entry's trace number and the return code, for returns that match no entry of the bank. */
  readonly unmatched: { readonly traceNumber: string; readonly reason: string }[];
}

export interface IncomingImport {
  readonly credited: number;
  /** The incoming entries returned to their bank (R03 unknown account, R02 closed), by their trace number. */
  readonly returned: { readonly traceNumber: string; readonly reason: string }[];
  readonly alreadyApplied: number;
}

function entriesOf(file: NachaFile): { entry: EntryDetail; companyName: string }[] {
  return file.batches.flatMap((batch) => batch.entries.map((entry) => ({ entry, companyName: batch.header.companyName })));
}

/**
 * A returns file (POST /admin/ach/returns, or the SFTP inbox): parsed whole first — a malformed file throws its
 * NachaFormatError and nothing is applied — then each return (addenda 99) matched by its original trace number.
 * Per return, in this order: the transfer's record (TransferFailed with the code + TransferRefunded; it says whether
 * the entry had settled), the payer's debit `failed` and the refund `Returned: R01 Insufficient funds` from
 * ach-outbound or cash-at-fed, then AchReturnApplied. The last one is what makes a second import `alreadyApplied`;
 * a run cut short before it applies the rest again, each command a no-op for what is done.
 */
export async function importReturnsFile(deps: AchCycleDeps, text: string): Promise<ReturnsImport> {
  const file = parseNachaFile(text);
  const businessDate = await deps.businessDate();
  let applied = 0;
  let alreadyApplied = 0;
  const unmatched: { traceNumber: string; reason: string }[] = [];
  for (const { entry } of entriesOf(file)) {
    const addenda = entry.addenda;
    if (addenda?.type !== '99') {
      unmatched.push({ traceNumber: entry.traceNumber, reason: 'Not a return' });
      continue;
    }
    const original = addenda.originalTraceNumber;
    const reasonCode = addenda.returnReasonCode;
    const known = await readAchCycle(deps, (state) => {
      const traced = state.traces.get(original);
      return { returned: state.returned.has(original), transferId: traced && !traced.entry.returnOf ? traced.entry.transferId : undefined };
    });
    if (known.returned) {
      alreadyApplied += 1;
      continue;
    }
    if (known.transferId === undefined) {
      unmatched.push({ traceNumber: original, reason: reasonCode });
      continue;
    }
    await applyReturn(deps, known.transferId, original, reasonCode, businessDate);
    applied += 1;
  }
  deps.logger?.info({ applied, alreadyApplied, unmatched: unmatched.length }, 'ACH returns imported');
  return { applied, alreadyApplied, unmatched };
}

async function applyReturn(deps: AchCycleDeps, transferId: string, originalTraceNumber: string, reasonCode: ReturnReasonCode, businessDate: string): Promise<void> {
  const now = nowOf(deps);
  const before = await readTransferRecord(deps.commands, transferId);
  if (before.phase === 'none') throw new Error(`ACH entry ${originalTraceNumber}: transfer ${transferId} has no record`);
  const record = await onTransfer(deps.commands, transferId, `ach-return:${originalTraceNumber}`, returnRecordCommand(reasonCode, now));
  const afterSettlement = record.phase !== 'none' && record.returnedAfterSettlement === true;
  const { request } = before;
  for (const [index, command] of returnPayerCommands(request, reasonCode, afterSettlement, now, businessDate).entries()) {
    await onAccount(deps.commands, request.payerId, `ach-return:${originalTraceNumber}:${index}`, command, transferId);
  }
  await onAchStream(deps, `ach-return-applied:${originalTraceNumber}`, { type: 'RecordAchReturn', originalTraceNumber, reasonCode, afterSettlement, businessDate, now });
}

/** The 9-digit routing number of an incoming entry's ODFI: its trace number's 8-digit prefix and the check digit. */
function odfiRoutingOf(traceNumber: string): string {
  const firstEight = traceNumber.slice(0, 8);
  return `${firstEight}${routingCheckDigit(firstEight)}`;
}

/**
 * An incoming file (POST /admin/ach/incoming, or the SFTP inbox): parsed whole first, then each credit (22/32) to
 * this bank's routing number credits the customer holding the account number (checking for 22, savings for 32;
 * debit cash-at-fed). An unknown account number (R03), a closed customer or account (R02), or an entry this bank
 * cannot take (not a credit, another bank's routing number: R03) is owed back (cash-at-fed → ach-outbound) and
 * returned (21/31) in the next outbound file. Entries are recognised by trace number: again → `alreadyApplied`.
 */
export async function importIncomingFile(deps: AchCycleDeps, text: string): Promise<IncomingImport> {
  const file = parseNachaFile(text);
  const businessDate = await deps.businessDate();
  const ownRdfi = deps.settings.bankRoutingNumber;
  let credited = 0;
  let alreadyApplied = 0;
  const returned: { traceNumber: string; reason: string }[] = [];
  for (const { entry, companyName } of entriesOf(file)) {
    const traceNumber = entry.traceNumber;
    if (await readAchCycle(deps, (state) => state.incoming.has(traceNumber))) {
      alreadyApplied += 1;
      continue;
    }
    const now = nowOf(deps);
    const code = entry.transactionCode;
    const isCredit = (code === 22 || code === 32) && entry.rdfiRoutingNumber === ownRdfi;
    const payee = isCredit ? await findInternalPayee({ commands: deps.commands, pool: deps.pool }, entry.accountNumber.trim()) : undefined;
    let reason: ReturnReasonCode | undefined = payee ? undefined : (await isClosedAccountNumber(deps, entry.accountNumber.trim())) ? 'R02' : 'R03';
    if (payee) {
      const transactionId = deterministicId(`ach-incoming:${traceNumber}`);
      const account = transactionCodes[code].account;
      try {
        await onAccount(
          deps.commands,
          payee.payeeId,
          `ach-incoming:${traceNumber}`,
          { type: 'CreditFromAch', transactionId, account, amountCents: entry.amountCents, description: `ACH credit: ${companyName || 'incoming transfer'}`, traceNumber, businessDate, now },
          traceNumber,
        );
        await onAchStream(deps, `ach-incoming-credited:${traceNumber}`, {
          type: 'RecordAchIncomingCredit',
          traceNumber,
          customerId: payee.payeeId,
          account,
          amountCents: entry.amountCents,
          transactionId,
          businessDate,
          now,
        });
        credited += 1;
        continue;
      } catch (error) {
        if (!isDomainError(error) || (error.code !== 'closed' && error.code !== 'not_found')) throw error;
        reason = error.code === 'closed' ? 'R02' : 'R03';
      }
    }
    await onAchStream(deps, `ach-incoming-returned:${traceNumber}`, {
      type: 'RecordAchIncomingReturn',
      returnId: deterministicId(`ach-incoming-return:${traceNumber}`),
      traceNumber,
      reasonCode: reason ?? 'R03',
      amountCents: entry.amountCents,
      routingNumber: odfiRoutingOf(traceNumber),
      accountNumber: entry.accountNumber.trim() || '0',
      name: entry.individualName,
      transactionCode: transactionCodes[code].account === 'savings' ? 32 : 22,
      businessDate,
      now,
    });
    returned.push({ traceNumber, reason: reason ?? 'R03' });
  }
  deps.logger?.info({ credited, returned: returned.length, alreadyApplied }, 'ACH incoming file imported');
  return { credited, returned, alreadyApplied };
}

/** An account number of a customer the bank closed (its reservation, else rm.users), for R02 rather than R03. */
async function isClosedAccountNumber(deps: AchCycleDeps, accountNumber: string): Promise<boolean> {
  if (!isAccountNumber(accountNumber)) return false;
  const heldBy = await deps.commands.read(accountNumberReservationDecider, streams.accountNumber(accountNumber), (state) => state.heldBy ?? undefined);
  const { rows } = await deps.pool.query<{ id: string }>('SELECT id FROM rm.users WHERE account_number = $1 AND is_closed', [accountNumber]);
  for (const userId of [...(heldBy ? [heldBy] : []), ...rows.map((row) => row.id)]) {
    if (await deps.commands.read(customerDecider, streams.customer(userId), (state) => state.status === 'closed')) return true;
  }
  return false;
}

/** Whether a file holds returns (any addenda 99): the SFTP inbox holds both kinds. */
export function isReturnsFile(text: string): boolean {
  return parseNachaFile(text).batches.some((batch) => batch.entries.some((entry) => entry.addenda?.type === '99'));
}
