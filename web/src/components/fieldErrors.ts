/** The part of a zod issue a form needs (kept structural so the web app needs no direct zod import). */
export interface IssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** The first message for each top-level field of a failed zod parse: { email: 'Email is required', … }. */
export function fieldErrors<K extends string>(issues: readonly IssueLike[]): Partial<Record<K, string>> {
  const errors: Partial<Record<K, string>> = {};
  for (const issue of issues) {
    const key = issue.path[0];
    if (typeof key === 'string' && errors[key as K] === undefined) errors[key as K] = issue.message;
  }
  return errors;
}
