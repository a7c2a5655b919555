import { describe, expect, it } from 'vitest';
import type { AccountEvent } from '../account/accountDecider';
import { evolveAccount, isAccountEvent } from '../account/accountDecider';
import { initialAccountState, type AccountState } from '../account/accountState';
import type { CustomerEvent } from '../customer/customerDecider';
import { evolveCustomer, isCustomerEvent } from '../customer/customerDecider';
import { initialCustomerState, type CustomerState } from '../customer/customerState';
import type { BankEvent } from '../events/eventSchemas';
import { deciderSpecification, refused } from '../testing/deciderSpecification';
import { ACCOUNT_NUMBER, ADMIN_ID, CUSTOMER_ID, funded, NOW, opened, PAYEE_ACCOUNT_NUMBER, PAYEE_ID, pinSet, registered, uuid } from '../testing/fixtures';
import type { RequestTransfer, TransferRecipient } from './decideTransferRequest';
import { decideTransferRequest, isSameTransferRequest } from './decideTransferRequest';

/** The payer's two streams as one spec state; the command carries the resolved recipient alongside. */
interface PayerState {
  readonly customer: CustomerState;
  readonly account: AccountState;
}
type When = RequestTransfer & { recipient: TransferRecipient };
const { given } = deciderSpecification<When, BankEvent, PayerState, AccountEvent[]>({
  initialState: { customer: initialCustomerState, account: initialAccountState },
  evolve: (state, event) => {
    if (isCustomerEvent(event)) return { ...state, customer: evolveCustomer(state.customer, event) };
    if (isAccountEvent(event)) return { ...state, account: evolveAccount(state.account, event) };
    return state;
  },
  decide: ({ recipient, ...command }, state) => decideTransferRequest(command, { ...state, recipient }),
});

const TRANSFER = uuid(600);
const DEBIT = uuid(601);
const CREDIT = uuid(602);
const REFUND = uuid(603);
const payee: TransferRecipient = { kind: 'internal', payeeId: PAYEE_ID, name: 'Grace Hopper' };
const external: TransferRecipient = { kind: 'external', name: 'Alan Turing' };

const request: When = {
  type: 'RequestTransfer',
  transferId: TRANSFER,
  payerId: CUSTOMER_ID,
  debitTransactionId: DEBIT,
  creditTransactionId: CREDIT,
  refundTransactionId: REFUND,
  from: 'savings',
  amountCents: 2500,
  accountNumber: PAYEE_ACCOUNT_NUMBER,
  bankName: 'Summit Bank',
  routingNumber: '021000021',
  accountType: 'checking',
  to: 'whatever the form showed',
  description: 'Dinner',
  pinMatches: true,
  now: NOW,
  recipient: payee,
};

const blocked: CustomerEvent = { type: 'CustomerBlocked', data: { adminId: ADMIN_ID, occurredAt: NOW } };
const ready: BankEvent[] = [registered(), pinSet(), opened(), funded('savings', 10000, 10000), funded('checking', 500, 500, uuid(904))];

type DebitData = Extract<AccountEvent, { type: 'AccountDebited' }>['data'];
type Intent = NonNullable<DebitData['intent']>;

const intent = (overrides: Partial<Intent> = {}): Intent => ({
  internal: true,
  payeeId: PAYEE_ID,
  creditTransactionId: CREDIT,
  refundTransactionId: REFUND,
  accountNumber: PAYEE_ACCOUNT_NUMBER,
  bankName: 'Summit Bank',
  routingNumber: '021000021',
  accountType: 'checking',
  recipientName: 'Grace Hopper',
  description: 'Dinner',
  requestedAt: NOW,
  ...overrides,
});

const debited = (overrides: Partial<DebitData> = {}): AccountEvent => ({
  type: 'AccountDebited',
  data: {
    transactionId: DEBIT,
    account: 'savings',
    amountCents: 2500,
    direction: 'debit',
    description: 'Dinner',
    transferId: TRANSFER,
    status: 'pending',
    occurredAt: NOW,
    balanceAfterCents: 7500,
    businessDate: '2025-06-01',
    intent: intent(),
    ...overrides,
  },
});

const intentOf = (events: AccountEvent[]): Intent | undefined => (events[0]?.type === 'AccountDebited' ? events[0].data.intent : undefined);

describe('requesting a transfer to another customer of the bank', () => {
  it("debits the payer at once (pending), the debit carrying the transfer's intent with the bank's own recipient name", () => {
    given(ready).when(request).then([debited()]);
  });

  it('describes the debit by its recipient when no description is given', () => {
    const decision = given(ready).when({ ...request, description: undefined }).decision();
    expect(decision[0]?.data).toMatchObject({ description: 'Transfer to Grace Hopper' });
    expect(intentOf(decision)).toMatchObject({ description: '' });
  });
});

describe('requesting a transfer to another bank', () => {
  it('requests an external transfer with no payee and no credit transaction', () => {
    const { payeeId: _p, creditTransactionId: _c, ...externalIntent } = intent({ internal: false, recipientName: 'Alan Turing', bankName: 'Other Bank' });
    given(ready)
      .when({ ...request, bankName: 'Other Bank', recipient: external })
      .then([debited({ intent: externalIntent })]);
  });

  it("needs a routing number that passes the check digit: a blank one names no bank ('Invalid routing number')", () => {
    for (const routingNumber of [undefined, '', '   ', '021000022']) {
      given(ready).when({ ...request, routingNumber, recipient: external }).then(refused('invalid_routing_number', 'Invalid routing number'));
    }
  });

  it("needs an account number an ACH entry holds as it is: 17 printable ASCII characters at most ('Invalid account number')", () => {
    for (const accountNumber of ['123456789012345678', '12345é', '4000\u00a0123']) {
      given(ready).when({ ...request, accountNumber, recipient: external }).then(refused('invalid_external_account', 'Invalid account number'));
    }
    expect(given(ready).when({ ...request, accountNumber: ' 12345678901234567 ', recipient: external }).decision()).toHaveLength(1);
    expect(given(ready).when({ ...request, accountNumber: 'AB-1234 5', recipient: external }).decision()).toHaveLength(1);
    // Refused in API.md's order: after the amount, before the balance.
    given(ready).when({ ...request, accountNumber: '123456789012345678', recipient: external, amountCents: 99 }).then(refused('invalid_amount', 'Amount must be at least 1'));
    given(ready).when({ ...request, accountNumber: '123456789012345678', recipient: external, amountCents: 999_999_999 }).then(refused('invalid_external_account', 'Invalid account number'));
  });

  it("uses the form's recipient name when the directory knows none", () => {
    const decision = given(ready).when({ ...request, recipient: { kind: 'external' } }).decision();
    expect(intentOf(decision)).toMatchObject({ recipientName: 'whatever the form showed' });
  });
});

describe('moving money between one’s own accounts', () => {
  it('allows savings → checking (same number, different type)', () => {
    const decision = given(ready)
      .when({ ...request, accountNumber: ACCOUNT_NUMBER, accountType: 'checking', recipient: { kind: 'internal', payeeId: CUSTOMER_ID, name: 'Ada Lovelace' } })
      .decision();
    expect(decision[0]?.data).toMatchObject({ account: 'savings', intent: { internal: true, payeeId: CUSTOMER_ID, accountType: 'checking' } });
  });

  it("refuses savings → savings: 'You cannot transfer to the same account'", () => {
    given(ready)
      .when({ ...request, accountNumber: ACCOUNT_NUMBER, accountType: 'savings', recipient: { kind: 'internal', payeeId: CUSTOMER_ID, name: 'Ada Lovelace' } })
      .then(refused('same_account', 'You cannot transfer to the same account'));
  });

  it('allows the same account type at another account number', () => {
    expect(given(ready).when({ ...request, accountType: 'savings' }).decision()).toHaveLength(1);
  });
});

describe('transfer refusals, in the order of API.md', () => {
  it('a blocked customer: suspended', () => {
    given([...ready, blocked]).when({ ...request, pinMatches: false, amountCents: undefined }).then(refused('blocked', 'Your account had been suspended, please contact bank support'));
  });

  it('no pin set: set your payment pin (before checking the pin)', () => {
    given([registered(), opened(), funded('savings', 10000, 10000)]).when({ ...request, pinMatches: false }).then(refused('no_pin', 'Please set your payment pin'));
  });

  it('a wrong pin: incorrect payment pin (before missing fields)', () => {
    given(ready).when({ ...request, pinMatches: false, amountCents: undefined }).then(refused('wrong_pin', 'Incorrect payment pin'));
  });

  it.each(['amountCents', 'accountType', 'accountNumber'] as const)('missing %s: please fill all fields', (field) => {
    given(ready).when({ ...request, [field]: undefined }).then(refused('fill_fields', 'Please fill all fields'));
  });

  it('a blank recipient account number: please fill all fields', () => {
    given(ready).when({ ...request, accountNumber: '   ' }).then(refused('fill_fields', 'Please fill all fields'));
  });

  it('missing fields come before the same-account rule', () => {
    given(ready).when({ ...request, accountNumber: ACCOUNT_NUMBER, accountType: 'savings', amountCents: undefined }).then(refused('fill_fields', 'Please fill all fields'));
  });

  it('the same account comes before the balance', () => {
    given(ready).when({ ...request, accountNumber: ACCOUNT_NUMBER, accountType: 'savings', amountCents: 999999 }).then(refused('same_account', 'You cannot transfer to the same account'));
  });

  it('an amount below 1 dollar', () => {
    given(ready).when({ ...request, amountCents: 99 }).then(refused('invalid_amount', 'Amount must be at least 1'));
  });

  it("a routing number that fails the ABA check digit: 'Invalid routing number', after the amount and before the balance", () => {
    for (const routingNumber of ['123456789', '021000022', '02100002', 'abcdefghi']) {
      given(ready).when({ ...request, routingNumber, amountCents: 999999 }).then(refused('invalid_routing_number', 'Invalid routing number'));
    }
    given(ready).when({ ...request, routingNumber: '123456789', amountCents: 99 }).then(refused('invalid_amount', 'Amount must be at least 1'));
    given(ready).when({ ...request, routingNumber: '123456789', accountNumber: ACCOUNT_NUMBER, accountType: 'savings' }).then(refused('same_account', 'You cannot transfer to the same account'));
    expect(given(ready).when({ ...request, routingNumber: ' 011000015 ' }).decision()).toHaveLength(1);
    expect(given(ready).when({ ...request, routingNumber: '  ' }).decision()).toHaveLength(1);
  });

  it('more than the balance of the `from` account: not enough balance', () => {
    given(ready).when({ ...request, amountCents: 10001 }).then(refused('insufficient_balance', 'You do not have enough balance'));
  });

  it('the balance that counts is the `from` account, not the account type', () => {
    given(ready).when({ ...request, from: 'checking', accountType: 'savings', amountCents: 600 }).then(refused('insufficient_balance', 'You do not have enough balance'));
    expect(given(ready).when({ ...request, from: 'savings', accountType: 'checking', amountCents: 600 }).decision()).toHaveLength(1);
  });

  it('may spend the whole balance', () => {
    expect(given(ready).when({ ...request, amountCents: 10000 }).decision()[0]?.data).toMatchObject({ balanceAfterCents: 0 });
  });

  it('a closed customer', () => {
    given([...ready, { type: 'CustomerClosed', data: { adminId: ADMIN_ID, closedAt: NOW } }]).when(request).then(refused('closed', 'Account is closed'));
  });

  it('an unknown customer', () => {
    given([]).when(request).then(refused('not_found', 'User not found'));
  });
});

describe('a retried transfer request', () => {
  it('records nothing when the debit is already recorded (the same request again)', () => {
    given([...ready, debited()]).when(request).then([]);
  });

  it('records nothing even when the pin has changed since (the first decision stands)', () => {
    given([...ready, debited()]).when({ ...request, pinMatches: false }).then([]);
  });
});

describe('whether a request asks for the transfer a recorded debit made (the same Idempotency-Key again)', () => {
  const state = ready.reduce<PayerState>(
    (current, event) =>
      isCustomerEvent(event) ? { ...current, customer: evolveCustomer(current.customer, event) } : isAccountEvent(event) ? { ...current, account: evolveAccount(current.account, event) } : current,
    { customer: initialCustomerState, account: initialAccountState },
  );
  const { recipient: _recipient, ...command } = request;
  const decided = decideTransferRequest(command, { ...state, recipient: payee })[0];
  if (decided?.type !== 'AccountDebited') throw new Error('expected a debit');
  const recorded = decided.data;

  it('the request that was decided is the same, as are its differences in spacing, recipient name and pin', () => {
    expect(isSameTransferRequest(recorded, request)).toBe(true);
    expect(isSameTransferRequest(recorded, { ...request, accountNumber: ` ${PAYEE_ACCOUNT_NUMBER} `, description: ' Dinner ', bankName: 'Summit Bank ', to: 'someone else' })).toBe(true);
  });

  it('any other amount, account, account number or type, bank, routing number or description is another request', () => {
    for (const change of [
      { amountCents: 2501 },
      { from: 'checking' as const },
      { accountNumber: ACCOUNT_NUMBER },
      { accountType: 'savings' as const },
      { bankName: 'Other Bank' },
      { routingNumber: '011000015' },
      { routingNumber: undefined },
      { description: 'Lunch' },
      { description: undefined },
    ]) {
      expect(isSameTransferRequest(recorded, { ...request, ...change }), JSON.stringify(change)).toBe(false);
    }
  });

  it('a debit recorded before debits carried their intent compares by account and amount', () => {
    const { intent: _intent, ...old } = recorded;
    expect(isSameTransferRequest(old, { ...request, accountNumber: ACCOUNT_NUMBER })).toBe(true);
    expect(isSameTransferRequest(old, { ...request, amountCents: 1 })).toBe(false);
  });
});
