import type { Decider } from '../decider';
import { assertNever } from '../decider';
import { refuse } from '../domainError';
import type { EventOf } from '../events/eventSchemas';
import { OverlayMap, OverlaySet, type EditableMap, type GrowingSet } from '../overlay';

/** The payee directory, stream `beneficiaries` (one stream for the whole bank, edited by staff). */

export interface Beneficiary {
  readonly beneficiaryId: string;
  readonly name: string;
  readonly accountNumber: string;
  readonly bankName?: string;
}

/** The directory grows in place as events are folded (see decider.ts): O(1) per event. */
export interface BeneficiaryDirectoryState {
  /** By beneficiaryId, in the order added. */
  readonly beneficiaries: EditableMap<string, Beneficiary>;
  /** Beneficiary id by account number (of the present entries). */
  readonly byAccountNumber: EditableMap<string, string>;
  /** Every beneficiaryId ever used (removed ones included), so an id is never reused. */
  readonly knownIds: GrowingSet<string>;
}

/** The empty directory; frozen, so the first event folds into a new state (emptyDirectory). */
export const initialBeneficiaryDirectoryState: BeneficiaryDirectoryState = Object.freeze({
  beneficiaries: new Map<string, Beneficiary>(),
  byAccountNumber: new Map<string, string>(),
  knownIds: new Set<string>(),
});

function ownedDirectory(state: BeneficiaryDirectoryState): BeneficiaryDirectoryState {
  return state === initialBeneficiaryDirectoryState ? { beneficiaries: new Map(), byAccountNumber: new Map(), knownIds: new Set() } : state;
}

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

export function evolveBeneficiaryDirectory(given: BeneficiaryDirectoryState, event: BeneficiaryEvent): BeneficiaryDirectoryState {
  const state = ownedDirectory(given);
  const { beneficiaryId } = event.data;
  switch (event.type) {
    case 'BeneficiaryAdded': {
      const { name, accountNumber, bankName } = event.data;
      const beneficiary: Beneficiary = { beneficiaryId, name, accountNumber, ...(bankName === undefined ? {} : { bankName }) };
      state.beneficiaries.set(beneficiaryId, beneficiary);
      state.byAccountNumber.set(accountNumber, beneficiaryId);
      state.knownIds.add(beneficiaryId);
      return state;
    }
    case 'BeneficiaryRemoved': {
      const removed = state.beneficiaries.get(beneficiaryId);
      state.beneficiaries.delete(beneficiaryId);
      if (removed && state.byAccountNumber.get(removed.accountNumber) === beneficiaryId) state.byAccountNumber.delete(removed.accountNumber);
      return state;
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
      if (state.knownIds.has(command.beneficiaryId)) return [];
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
      const beneficiary = state.beneficiaries.get(command.beneficiaryId);
      if (!beneficiary) refuse('not_found', 'Beneficiary not found');
      return [{ type: 'BeneficiaryRemoved', data: { ...beneficiary, adminId: command.adminId, occurredAt: command.now } }];
    }
    default:
      return assertNever(command);
  }
}

/** The directory entry with this account number, if any. */
export function findBeneficiaryByAccountNumber(state: BeneficiaryDirectoryState, accountNumber: string): Beneficiary | undefined {
  const id = state.byAccountNumber.get(accountNumber);
  return id === undefined ? undefined : state.beneficiaries.get(id);
}

/** Snapshot encoding of the directory: its entries in order, and the ids of removed ones. */
const directorySnapshot = {
  encode(state: BeneficiaryDirectoryState): unknown {
    return { beneficiaries: [...state.beneficiaries].map(([, b]) => b), removedIds: [...state.knownIds].filter((id) => !state.beneficiaries.has(id)) };
  },
  decode(json: unknown): BeneficiaryDirectoryState {
    const encoded = json as { beneficiaries: Beneficiary[]; removedIds: string[] };
    const state: BeneficiaryDirectoryState = { beneficiaries: new Map(), byAccountNumber: new Map(), knownIds: new Set(encoded.removedIds) };
    for (const beneficiary of encoded.beneficiaries) {
      state.beneficiaries.set(beneficiary.beneficiaryId, beneficiary);
      state.byAccountNumber.set(beneficiary.accountNumber, beneficiary.beneficiaryId);
      state.knownIds.add(beneficiary.beneficiaryId);
    }
    return state;
  },
};

export const beneficiaryDirectoryDecider: Decider<BeneficiaryCommand, BeneficiaryEvent, BeneficiaryDirectoryState> = {
  name: 'beneficiaries',
  stateVersion: 2,
  snapshot: directorySnapshot,
  fork: (state) => ({ beneficiaries: new OverlayMap(state.beneficiaries), byAccountNumber: new OverlayMap(state.byAccountNumber), knownIds: new OverlaySet(state.knownIds) }),
  initialState: initialBeneficiaryDirectoryState,
  evolve: evolveBeneficiaryDirectory,
  decide: decideBeneficiaryDirectory,
};
