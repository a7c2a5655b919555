import { bankEvent } from '@bank/domain';
import type { EventMetadata } from '@bank/eventstore';
import { testId, type StreamEvent } from './recordedEvents';

/** Ids used by the sample history. */
export const ids = {
  ada: testId(1),
  admin: testId(2),
  bob: testId(3),
  staffCredit: testId(101),
  staffDebit: testId(102),
  reversal: testId(103),
  adjustChecking: testId(104),
  internalTransfer: testId(201),
  internalDebit: testId(202),
  internalCredit: testId(203),
  internalRefund: testId(204),
  externalTransfer: testId(301),
  externalDebit: testId(302),
  externalRefund: testId(304),
  beneficiary1: testId(401),
  beneficiary2: testId(402),
  contact1: testId(501),
  contact2: testId(502),
  cardRequest: testId(601),
  passport: testId(701),
  front: testId(702),
  picture: testId(703),
} as const;

const sha = (n: number) => n.toString(16).padStart(64, '0');
export const at = (minute: number) => new Date(Date.UTC(2025, 5, 1, 10, minute)).toISOString();

const asAdmin: EventMetadata = { actorId: ids.admin, actorRole: 'admin' };
const asAda: EventMetadata = { actorId: ids.ada, actorRole: 'customer' };

function registered(userId: string, first: string, email: string, accountNumber: string, role: 'customer' | 'admin') {
  return bankEvent('CustomerRegistered', {
    userId,
    firstName: first,
    lastName: 'Tester',
    email,
    phone: '555-0100',
    address: '1 Main St',
    state: 'NY',
    passwordHash: '$2b$10$hash',
    accountNumber,
    role,
    registeredAt: at(0),
  });
}

/**
 * A small history that uses every event type the projector handles (and one it does not know), valid for the
 * domain's schemas and consistent for its replay. Final balances: Ada savings 98,000 checking 5,000; Bob checking 2,000.
 */
export function sampleHistory(): StreamEvent[] {
  const ada = `customer-${ids.ada}`;
  const adaAccount = `account-${ids.ada}`;
  const bob = `customer-${ids.bob}`;
  const bobAccount = `account-${ids.bob}`;
  const internal = `transfer-${ids.internalTransfer}`;
  const external = `transfer-${ids.externalTransfer}`;
  const money = { description: 'Deposit', status: 'completed' as const };
  return [
    { stream: `customer-${ids.admin}`, event: registered(ids.admin, 'Root', 'root@bank.test', '9000000001', 'admin'), metadata: { actorRole: 'system' } },
    { stream: ada, event: registered(ids.ada, 'Ada', 'ada@example.com', '1234567890', 'customer'), metadata: asAda },
    { stream: `email-ada@example.com`, event: bankEvent('EmailReserved', { email: 'ada@example.com', userId: ids.ada }) },
    { stream: adaAccount, event: bankEvent('AccountOpened', { userId: ids.ada, accountNumber: '1234567890', openedAt: at(0) }) },
    { stream: bob, event: registered(ids.bob, 'Bob', 'bob@example.com', '5555555555', 'customer') },
    { stream: bobAccount, event: bankEvent('AccountOpened', { userId: ids.bob, accountNumber: '5555555555', openedAt: at(0) }) },
    { stream: ada, event: bankEvent('ProfileChanged', { before: { phone: '555-0100' }, after: { phone: '555-0199' }, changedBy: ids.ada, occurredAt: at(1) }), metadata: asAda },
    {
      stream: ada,
      event: bankEvent('ProfileChanged', { before: { email: 'ada@example.com' }, after: { email: 'Ada.L@Example.com' }, changedBy: ids.admin, occurredAt: at(2) }),
      metadata: asAdmin,
    },
    { stream: ada, event: bankEvent('PasswordChanged', { passwordHash: '$2b$10$newhash', changedBy: ids.ada, occurredAt: at(3) }), metadata: asAda },
    {
      stream: ada,
      event: bankEvent('VerificationSubmitted', {
        documentType: 'passport',
        passport: { fileId: ids.passport, sha256: sha(1) },
        documentFront: { fileId: ids.front, sha256: sha(2) },
        documentBack: { fileId: ids.front, sha256: sha(2) },
        dateOfBirth: '1990-01-02',
        previousStatus: 'awaiting',
        submittedAt: at(4),
      }),
      metadata: asAda,
    },
    { stream: ada, event: bankEvent('VerificationStatusSet', { status: 'verified', previousStatus: 'pending', adminId: ids.admin, occurredAt: at(5) }), metadata: asAdmin },
    { stream: ada, event: bankEvent('ProfilePictureSet', { fileId: ids.picture, sha256: sha(3), occurredAt: at(6) }), metadata: asAda },
    { stream: ada, event: bankEvent('PaymentPinSet', { pinHash: '$2b$10$pin', adminId: ids.admin, occurredAt: at(7) }), metadata: asAdmin },
    { stream: ada, event: bankEvent('CustomerBlocked', { adminId: ids.admin, occurredAt: at(8) }), metadata: asAdmin },
    { stream: ada, event: bankEvent('CustomerUnblocked', { adminId: ids.admin, occurredAt: at(9) }), metadata: asAdmin },
    { stream: ada, event: bankEvent('CustomerDisabled', { adminId: ids.admin, occurredAt: at(10) }), metadata: asAdmin },
    { stream: ada, event: bankEvent('CustomerEnabled', { adminId: ids.admin, occurredAt: at(11) }), metadata: asAdmin },
    { stream: ada, event: bankEvent('AccountNumberChanged', { previous: '1234567890', next: '1234500000', adminId: ids.admin, occurredAt: at(12) }), metadata: asAdmin },
    { stream: ada, event: bankEvent('CardRequested', { requestId: ids.cardRequest, cardType: 'travel-hotel', requestedAt: at(13) }), metadata: asAda },
    {
      stream: adaAccount,
      event: bankEvent('StaffTransactionPosted', {
        transactionId: ids.staffCredit,
        account: 'savings',
        amountCents: 100_000,
        direction: 'credit',
        ...money,
        occurredAt: at(14),
        balanceAfterCents: 100_000,
        adminId: ids.admin,
        postedAt: at(14),
      }),
      metadata: asAdmin,
    },
    {
      stream: adaAccount,
      event: bankEvent('BalanceAdjusted', {
        transactionId: ids.adjustChecking,
        account: 'checking',
        amountCents: 5_000,
        direction: 'credit',
        description: 'Correction',
        status: 'completed',
        occurredAt: at(15),
        balanceAfterCents: 5_000,
        adminId: ids.admin,
        reason: 'Correction',
        previousCents: 0,
        newCents: 5_000,
      }),
      metadata: asAdmin,
    },
    // An internal transfer Ada savings → Bob checking, 2,000.
    {
      stream: internal,
      event: bankEvent('TransferRequested', {
        transferId: ids.internalTransfer,
        payerId: ids.ada,
        from: 'savings',
        amountCents: 2_000,
        accountNumber: '5555555555',
        bankName: 'Our Bank',
        routingNumber: '011000015',
        accountType: 'checking',
        recipientName: 'Bob Tester',
        description: 'Rent',
        internal: true,
        payeeId: ids.bob,
        requestedAt: at(16),
        debitTransactionId: ids.internalDebit,
        creditTransactionId: ids.internalCredit,
        refundTransactionId: ids.internalRefund,
      }),
      metadata: asAda,
    },
    {
      stream: adaAccount,
      event: bankEvent('AccountDebited', {
        transactionId: ids.internalDebit,
        account: 'savings',
        amountCents: 2_000,
        direction: 'debit',
        description: 'Rent',
        transferId: ids.internalTransfer,
        status: 'pending',
        occurredAt: at(16),
        balanceAfterCents: 98_000,
      }),
      metadata: asAda,
    },
    { stream: internal, event: bankEvent('TransferDebited', { transferId: ids.internalTransfer, transactionId: ids.internalDebit, account: 'savings', amountCents: 2_000, occurredAt: at(16) }) },
    {
      stream: bobAccount,
      event: bankEvent('AccountCredited', {
        transactionId: ids.internalCredit,
        account: 'checking',
        amountCents: 2_000,
        direction: 'credit',
        description: 'Rent',
        transferId: ids.internalTransfer,
        status: 'completed',
        occurredAt: at(17),
        balanceAfterCents: 2_000,
      }),
    },
    {
      stream: internal,
      event: bankEvent('TransferCredited', { transferId: ids.internalTransfer, transactionId: ids.internalCredit, account: 'checking', amountCents: 2_000, occurredAt: at(17), payeeId: ids.bob }),
    },
    {
      stream: adaAccount,
      event: bankEvent('TransactionStatusChanged', { transactionId: ids.internalDebit, status: 'completed', previousStatus: 'pending', transferId: ids.internalTransfer, occurredAt: at(17) }),
    },
    // An external transfer of 3,000 that fails and is refunded.
    {
      stream: external,
      event: bankEvent('TransferRequested', {
        transferId: ids.externalTransfer,
        payerId: ids.ada,
        from: 'savings',
        amountCents: 3_000,
        accountNumber: '7777777777',
        bankName: 'Other Bank',
        routingNumber: '121000358',
        accountType: 'savings',
        recipientName: 'Carol',
        description: 'Gift',
        internal: false,
        requestedAt: at(18),
        debitTransactionId: ids.externalDebit,
        refundTransactionId: ids.externalRefund,
      }),
      metadata: asAda,
    },
    {
      stream: adaAccount,
      event: bankEvent('AccountDebited', {
        transactionId: ids.externalDebit,
        account: 'savings',
        amountCents: 3_000,
        direction: 'debit',
        description: 'Gift',
        transferId: ids.externalTransfer,
        status: 'pending',
        occurredAt: at(18),
        balanceAfterCents: 95_000,
      }),
    },
    { stream: external, event: bankEvent('TransferDebited', { transferId: ids.externalTransfer, transactionId: ids.externalDebit, account: 'savings', amountCents: 3_000, occurredAt: at(18) }) },
    { stream: external, event: bankEvent('TransferSent', { transferId: ids.externalTransfer, occurredAt: at(19) }) },
    { stream: external, event: bankEvent('TransferFailed', { transferId: ids.externalTransfer, reason: 'Rejected by the other bank', occurredAt: at(20) }) },
    {
      stream: adaAccount,
      event: bankEvent('TransactionStatusChanged', { transactionId: ids.externalDebit, status: 'failed', previousStatus: 'pending', transferId: ids.externalTransfer, occurredAt: at(20) }),
    },
    {
      stream: adaAccount,
      event: bankEvent('AccountCredited', {
        transactionId: ids.externalRefund,
        account: 'savings',
        amountCents: 3_000,
        direction: 'credit',
        description: 'Refund: Gift',
        transferId: ids.externalTransfer,
        status: 'completed',
        occurredAt: at(21),
        balanceAfterCents: 98_000,
        refundOf: ids.externalDebit,
      }),
    },
    { stream: external, event: bankEvent('TransferRefunded', { transferId: ids.externalTransfer, transactionId: ids.externalRefund, account: 'savings', amountCents: 3_000, occurredAt: at(21) }) },
    // A staff debit, reversed.
    {
      stream: adaAccount,
      event: bankEvent('StaffTransactionPosted', {
        transactionId: ids.staffDebit,
        account: 'savings',
        amountCents: 500,
        direction: 'debit',
        description: 'Fee',
        status: 'completed',
        // Back-dated by the admin: the transaction's date is earlier than when it was posted.
        occurredAt: at(3),
        balanceAfterCents: 97_500,
        adminId: ids.admin,
        postedAt: at(22),
      }),
      metadata: asAdmin,
    },
    {
      stream: adaAccount,
      event: bankEvent('TransactionReversed', {
        transactionId: ids.reversal,
        account: 'savings',
        amountCents: 500,
        direction: 'credit',
        description: 'Reversal: Fee',
        status: 'completed',
        occurredAt: at(23),
        balanceAfterCents: 98_000,
        reversedTransactionId: ids.staffDebit,
        adminId: ids.admin,
      }),
      metadata: asAdmin,
    },
    {
      stream: 'beneficiaries',
      event: bankEvent('BeneficiaryAdded', { beneficiaryId: ids.beneficiary1, name: 'Carol', accountNumber: '7777777777', bankName: 'Other Bank', adminId: ids.admin, occurredAt: at(24) }),
      metadata: asAdmin,
    },
    {
      stream: 'beneficiaries',
      event: bankEvent('BeneficiaryAdded', { beneficiaryId: ids.beneficiary2, name: 'Dave', accountNumber: '8888888888', adminId: ids.admin, occurredAt: at(25) }),
      metadata: asAdmin,
    },
    {
      stream: 'beneficiaries',
      event: bankEvent('BeneficiaryRemoved', { beneficiaryId: ids.beneficiary2, name: 'Dave', accountNumber: '8888888888', adminId: ids.admin, occurredAt: at(26) }),
      metadata: asAdmin,
    },
    {
      stream: `contact-${ids.contact1}`,
      event: bankEvent('ContactMessageReceived', { contactId: ids.contact1, name: 'Eve', email: 'eve@example.com', phone: '', subject: 'Hi', message: 'Hello', receivedAt: at(27) }),
    },
    {
      stream: `contact-${ids.contact2}`,
      event: bankEvent('ContactMessageReceived', { contactId: ids.contact2, name: 'Spam', email: 's@example.com', phone: '1', subject: '', message: 'Buy', receivedAt: at(28) }),
    },
    { stream: `contact-${ids.contact2}`, event: bankEvent('ContactMessageDeleted', { contactId: ids.contact2, adminId: ids.admin, occurredAt: at(29) }), metadata: asAdmin },
    { stream: 'experiments', event: { type: 'SomethingFromTheFuture', data: { whatever: true } } },
    { stream: bob, event: bankEvent('CustomerClosed', { adminId: ids.admin, closedAt: at(30) }), metadata: asAdmin },
    { stream: bobAccount, event: bankEvent('AccountClosed', { adminId: ids.admin, closedAt: at(30) }), metadata: asAdmin },
  ];
}
