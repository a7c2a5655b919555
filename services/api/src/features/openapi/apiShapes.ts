import { z } from 'zod';
import { enrolmentSecretShape, recoveryCodesShape, secondFactorChallengeShape, secondFactorStatusShape, sessionShape, signInNoticeShape } from '../auth/authShapes';
import { achFileDetailShape, achFileShape, achIncomingResultShape, achReturnsResultShape } from '../ach/achShapes';
import { beneficiaryShape } from '../beneficiaries/beneficiaryShape';
import { businessDateAdvanceShape, businessDateShape } from '../businessDate/businessDateShape';
import { contactShape } from '../contacts/contactShape';
import { interestShape, rateShape } from '../interest/interestShape';
import { bankShape, notificationSettingShape } from '../mail/mailShapes';
import { standingOrderShape } from '../standingOrders/standingOrderShape';
import { ledgerAccountShape, ledgerDayShape, ledgerEntryShape, reconciliationShape, trialBalanceShape } from '../ledger/ledgerShapes';
import { statementShape } from '../statements/statementShape';
import { adminUserShape, cardRequestShape, userShape } from '../users/userShape';

/** The contract's Transaction (API.md "Shapes"); served by the transactions feature. */
export const transactionShape = z
  .object({
    _id: z.uuid(),
    amount: z.number().describe('dollars'),
    transactionType: z.enum(['debit', 'credit']),
    date: z.iso.datetime({ offset: true }),
    description: z.string(),
    account: z.enum(['savings', 'checking']),
    status: z.enum(['completed', 'pending', 'failed', 'reversed']),
    balanceAfter: z.number().describe('dollars'),
    transferId: z.uuid().optional(),
    external: z.literal(true).optional().describe('the debit or refund of a transfer to another bank (sent by ACH); absent otherwise'),
  })
  .strict();

export const fieldIssueShape = z.object({ path: z.string(), message: z.string() }).strict();

/** Every error answer: `{message, errors?}` (500s add the request id). */
export const errorShape = z.object({ message: z.string(), errors: z.array(fieldIssueShape).optional(), requestId: z.string().optional() }).strict();

/** The named shapes of the OpenAPI document's components.schemas. */
export const apiShapes = {
  User: userShape,
  AdminUser: adminUserShape,
  CardRequest: cardRequestShape,
  Transaction: transactionShape,
  Statement: statementShape,
  StandingOrder: standingOrderShape,
  Beneficiary: beneficiaryShape,
  ContactMessage: contactShape,
  Error: errorShape,
  SecondFactorChallenge: secondFactorChallengeShape,
  EnrolmentSecret: enrolmentSecretShape,
  RecoveryCodes: recoveryCodesShape,
  SecondFactorStatus: secondFactorStatusShape,
  Session: sessionShape,
  SignInNotice: signInNoticeShape,
  BusinessDate: businessDateShape,
  BusinessDateAdvance: businessDateAdvanceShape,
  Rate: rateShape,
  Interest: interestShape,
  Bank: bankShape,
  NotificationSetting: notificationSettingShape,
  LedgerAccount: ledgerAccountShape,
  TrialBalance: trialBalanceShape,
  LedgerEntry: ledgerEntryShape,
  Reconciliation: reconciliationShape,
  LedgerDay: ledgerDayShape,
  AchFile: achFileShape,
  AchFileDetail: achFileDetailShape,
  AchReturnsResult: achReturnsResultShape,
  AchIncomingResult: achIncomingResultShape,
} as const;

export type ShapeName = keyof typeof apiShapes;
