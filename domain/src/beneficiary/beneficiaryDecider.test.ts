import { describe, expect, it } from 'vitest';
import { foldEvents } from '../decider';
import { deciderSpecification, refused } from '../testing/deciderSpecification';
import { ADMIN_ID, NOW, uuid } from '../testing/fixtures';
import { beneficiaryDirectoryDecider, findBeneficiaryByAccountNumber } from './beneficiaryDecider';
import type { BeneficiaryEvent } from './beneficiaryDecider';

const { given } = deciderSpecification(beneficiaryDirectoryDecider);
const add = { type: 'AddBeneficiary', beneficiaryId: uuid(40), name: ' Alan Turing ', accountNumber: '99887766554', bankName: 'Other Bank', adminId: ADMIN_ID, now: NOW } as const;
const added: BeneficiaryEvent = { type: 'BeneficiaryAdded', data: { beneficiaryId: uuid(40), name: 'Alan Turing', accountNumber: '99887766554', bankName: 'Other Bank', adminId: ADMIN_ID, occurredAt: NOW } };

describe('the beneficiary directory', () => {
  it('adds a beneficiary, naming the admin', () => {
    given([]).when(add).then([added]);
  });

  it('adds one without bank name', () => {
    const { bankName: _b, ...data } = added.data;
    given([]).when({ ...add, bankName: '' }).then([{ type: 'BeneficiaryAdded', data }]);
  });

  it.each(['name', 'accountNumber'] as const)('refuses without %s', (field) => {
    given([]).when({ ...add, [field]: undefined }).then(refused('all_fields_required', 'All fields are required'));
  });

  it('refuses a second entry for the same account number', () => {
    given([added]).when({ ...add, beneficiaryId: uuid(41) }).then(refused('already_exists', 'Beneficiary already exists'));
  });

  it('is a no-op when the same addition is retried', () => {
    given([added]).when(add).then([]);
  });

  it('removes a beneficiary, keeping its details for auditors', () => {
    given([added]).when({ type: 'RemoveBeneficiary', beneficiaryId: uuid(40), adminId: ADMIN_ID, now: NOW }).then([{ type: 'BeneficiaryRemoved', data: added.data }]);
  });

  it('refuses to remove an unknown beneficiary (404)', () => {
    given([]).when({ type: 'RemoveBeneficiary', beneficiaryId: uuid(40), adminId: ADMIN_ID, now: NOW }).then(refused('not_found', 'Beneficiary not found'));
  });

  it('finds a beneficiary by account number (the recipient lookup)', () => {
    const state = foldEvents(beneficiaryDirectoryDecider.evolve, beneficiaryDirectoryDecider.initialState, [added]);
    expect(findBeneficiaryByAccountNumber(state, '99887766554')?.name).toBe('Alan Turing');
    const removed = foldEvents(beneficiaryDirectoryDecider.evolve, state, [{ type: 'BeneficiaryRemoved', data: added.data }]);
    expect(findBeneficiaryByAccountNumber(removed, '99887766554')).toBeUndefined();
  });
});
