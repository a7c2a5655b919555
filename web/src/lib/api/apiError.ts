export interface FieldError {
  readonly path: string;
  readonly message: string;
}

/** An error answer of the API, carrying the server's message (the contract's error body). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly errors: readonly FieldError[] = [],
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** The message to show a person for any thrown value. */
export function errorMessage(error: unknown, fallback = 'An error occurred'): string {
  if (error instanceof ApiError) return error.message || fallback;
  if (error instanceof TypeError) return 'Cannot reach the bank right now. Check your connection and try again.';
  return fallback;
}
