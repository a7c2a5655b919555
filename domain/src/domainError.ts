/**
 * Every refusal of the bank, with the exact text the spec and API.md prescribe.
 * Deciders THROW a DomainError; they never return one. The API maps `httpStatus` (403, 404, 409 or 422).
 */
export const domainErrorMessages = {
  // transfers (API.md order: blocked, no_pin, wrong_pin, fill_fields, same_account, amount, invalid_routing_number, invalid_external_account, insufficient_balance)
  blocked: 'Your account had been suspended, please contact bank support',
  no_pin: 'Please set your payment pin',
  wrong_pin: 'Incorrect payment pin',
  fill_fields: 'Please fill all fields',
  same_account: 'You cannot transfer to the same account',
  invalid_routing_number: 'Invalid routing number',
  invalid_external_account: 'Invalid account number',
  insufficient_balance: 'You do not have enough balance',
  invalid_amount: 'Amount must be a positive number of cents',
  balance_limit: 'Balance limit exceeded',
  negative_balance: 'Balance cannot be negative',
  invalid_date: 'Date is not a valid date',
  // customer
  all_fields_required: 'All fields are required',
  file_too_large: 'File size must be less than 10MB',
  underage: 'You must be at least 18 years old',
  invalid_date_of_birth: 'Date of birth is not a valid date',
  old_password_incorrect: 'Old password is incorrect',
  names_read_only: 'First name and last name cannot be changed',
  invalid_account_number: 'Account number must be 10 digits',
  closed: 'Account is closed',
  // second factor (docs/api.md, "Second factor and sessions")
  invalid_code: 'Invalid code',
  password_incorrect: 'Password is incorrect',
  second_factor_enabled: 'The second factor is already turned on',
  second_factor_not_enabled: 'The second factor is not turned on',
  staff_second_factor_required: 'Staff must keep a second factor',
  reset_own_second_factor: 'Another admin must reset your second factor',
  reason_required: 'A reason is required',
  // ledger
  already_reversed: 'Transaction already reversed',
  reversal_not_reversible: 'A reversal cannot be reversed',
  transaction_not_reversible: 'Only a completed transaction can be reversed',
  transaction_final: 'Transaction status cannot be changed',
  // transfer process
  transfer_completed: 'Transfer already completed',
  transfer_failed: 'Transfer already failed',
  invalid_transfer_step: 'This step does not apply to this transfer',
  // standing orders
  invalid_schedule: 'Schedule is not valid',
  order_cancelled: 'Standing order is cancelled',
  // business date and close of business
  invalid_business_date: 'This business date cannot be closed now',
  business_date_follows_calendar: 'The business date follows the calendar',
  // interest
  rate_change_too_soon: 'Rates change from tomorrow at the earliest',
  // uniqueness / existence
  email_taken: 'Email already registered',
  account_number_taken: 'Account number already in use',
  already_exists: 'Already exists',
  not_found: 'Not found',
} as const;

export type DomainErrorCode = keyof typeof domainErrorMessages;

export type DomainErrorStatus = 403 | 404 | 409 | 422;

const statusByCode: Partial<Record<DomainErrorCode, DomainErrorStatus>> = {
  not_found: 404,
  email_taken: 409,
  account_number_taken: 409,
  already_exists: 409,
  second_factor_enabled: 409,
  invalid_business_date: 409,
  business_date_follows_calendar: 409,
  staff_second_factor_required: 403,
  reset_own_second_factor: 403,
};

/** HTTP status the API answers for a domain error code: 403, 404, 409, otherwise 422. */
export function httpStatusOf(code: DomainErrorCode): DomainErrorStatus {
  return statusByCode[code] ?? 422;
}

export class DomainError extends Error {
  override readonly name = 'DomainError';
  readonly code: DomainErrorCode;
  readonly httpStatus: DomainErrorStatus;

  /** `message` defaults to the catalogue text of `code` (domainErrorMessages). */
  constructor(code: DomainErrorCode, message: string = domainErrorMessages[code]) {
    super(message);
    this.code = code;
    this.httpStatus = httpStatusOf(code);
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

/** Throw-style helper: `refuse('blocked')`. */
export function refuse(code: DomainErrorCode, message?: string): never {
  throw new DomainError(code, message);
}

export type DecisionResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: DomainError };

/** Runs a throwing decision and returns a Result instead (for callers who prefer values to exceptions). */
export function tryDecide<T>(decide: () => T): DecisionResult<T> {
  try {
    return { ok: true, value: decide() };
  } catch (error) {
    if (isDomainError(error)) return { ok: false, error };
    throw error;
  }
}
