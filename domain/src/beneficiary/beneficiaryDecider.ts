import type { Decider } from '../decider';
import { assertNever } from '../decider';
import { refuse } from '../domainError';
import type { EventOf } from '../events/eventSchemas';

/** The payee directory, stream `beneficiaries` (one stream for the whole bank, edited by staff). */

export interface Beneficiary {
  readonly beneficiaryId: string;
  readonly name: string;
  readonly accountNumber: string;
  readonly bankName?: string;
}

export interface BeneficiaryDirectoryState {
  /** By beneficiaryId, in the order added. */
  readonly beneficiaries: Readonly<Record<string, Beneficiary>>;
  /** Every beneficiaryId ever used (removed ones included), so an id is never reused. */
  readonly knownIds: Readonly<Record<string, true>>;
}

export const initialBeneficiaryDirectoryState: BeneficiaryDirectoryState = { beneficiaries: {}, knownIds: {} };

export type BeneficiaryEvent = EventOf<'BeneficiaryAdded' | 'BeneficiaryRemoved'>;

export interface AddBeneficiary {
  readonly type: 'AddBeneficiary';
  readonly beneficiaryId: string;
  readonly name?: string | undefined;
  readonly accountNumber?: string | undefined;
  readonly bankName?: string | undefined;
  readonly adminId: string;
  readonly now: string;
}

export interface RemoveBeneficiary {
  readonly type: 'RemoveBeneficiary';
  readonly beneficiaryId: string;
  readonly adminId: string;
  readonly now: string;
}

export type BeneficiaryCommand = AddBeneficiary | RemoveBeneficiary;

export function evolveBeneficiaryDirectory(state: BeneficiaryDirectoryState, event: BeneficiaryEvent): BeneficiaryDirectoryState {
  const { beneficiaryId } = event.data;
  switch (event.type) {
    case 'BeneficiaryAdded': {
      const { name, accountNumber, bankName } = event.data;
      const beneficiary: Beneficiary = { beneficiaryId, name, accountNumber, ...(bankName === undefined ? {} : { bankName }) };
      return { beneficiaries: { ...state.beneficiaries, [beneficiaryId]: beneficiary }, knownIds: { ...state.knownIds, [beneficiaryId]: true } };
    }
    case 'BeneficiaryRemoved': {
      const { [beneficiaryId]: _removed, ...rest } = state.beneficiaries;
      return { ...state, beneficiaries: rest };
    }
    default:
      return assertNever(event);
  }
}

function present(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}

export function decideBeneficiaryDirectory(command: BeneficiaryCommand, state: BeneficiaryDirectoryState): BeneficiaryEvent[] {
  switch (command.type) {
    case 'AddBeneficiary': {
      if (!present(command.name) || !present(command.accountNumber)) refuse('all_fields_required');
      if (state.knownIds[command.beneficiaryId]) return [];
      const accountNumber = command.accountNumber.trim();
      if (findBeneficiaryByAccountNumber(state, accountNumber)) refuse('already_exists', 'Beneficiary already exists');
      const bankName = present(command.bankName) ? command.bankName.trim() : undefined;
      return [
        {
          type: 'BeneficiaryAdded',
          data: {
            beneficiaryId: command.beneficiaryId,
            name: command.name.trim(),
            accountNumber,
            ...(bankName === undefined ? {} : { bankName }),
            adminId: command.adminId,
            occurredAt: command.now,
          },
        },
      ];
    }
    case 'RemoveBeneficiary': {
      const beneficiary = state.beneficiaries[command.beneficiaryId];
      if (!beneficiary) refuse('not_found', 'Beneficiary not found');
      return [{ type: 'BeneficiaryRemoved', data: { ...beneficiary, adminId: command.adminId, occurredAt: command.now } }];
    }
    default:
      return assertNever(command);
  }
}

/** The directory entry with this account number, if any. */
export function findBeneficiaryByAccountNumber(state: BeneficiaryDirectoryState, accountNumber: string): Beneficiary | undefined {
  return Object.values(state.beneficiaries).find((beneficiary) => beneficiary.accountNumber === accountNumber);
}

export const beneficiaryDirectoryDecider: Decider<BeneficiaryCommand, BeneficiaryEvent, BeneficiaryDirectoryState> = {
  initialState: initialBeneficiaryDirectoryState,
  evolve: evolveBeneficiaryDirectory,
  decide: decideBeneficiaryDirectory,
};
