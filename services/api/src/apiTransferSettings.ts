import { faultHookFromSpec, type AchJobPolicy, type FaultHook, type TransferSettings } from '@bank/transfers';

/** The transfer settings the API's routes use, built once by the composition root (runtime/startBank.ts). */
export interface ApiTransferSettings {
  /** How long an internal transfer's request waits for the payee's credit (TRANSFER_CREDIT_WAIT_MS). */
  readonly creditWaitMs: number;
  /** After downtime, standing-order occurrences due up to this many days ago are still paid (STANDING_ORDER_CATCH_UP_DAYS). */
  readonly standingOrderCatchUpDays: number;
  /** Test-only fault injection at the transfer request's `after-debit` point (TRANSFER_FAULT; none in production). */
  readonly afterDebitFault: FaultHook;
  /** An ACH file's transmission job, queued by POST /admin/ach/files (WORKER_JOB_ATTEMPTS, WORKER_BACKOFF_MS). */
  readonly achJobs: AchJobPolicy;
}

/** The API's part of the transfer settings; the fault spec's other points belong to the worker. */
export function apiTransferSettings(settings: TransferSettings, nodeEnv: string): ApiTransferSettings {
  const afterDebit = settings.TRANSFER_FAULT?.split(',').filter((fault) => fault.trim().startsWith('after-debit')).join(',');
  return {
    creditWaitMs: settings.TRANSFER_CREDIT_WAIT_MS,
    standingOrderCatchUpDays: settings.STANDING_ORDER_CATCH_UP_DAYS,
    afterDebitFault: faultHookFromSpec(afterDebit, nodeEnv),
    achJobs: { attempts: settings.WORKER_JOB_ATTEMPTS, backoffMs: settings.WORKER_BACKOFF_MS },
  };
}
