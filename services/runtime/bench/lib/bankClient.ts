/** The few routes of /api the benchmarks drive, over HTTP/1.1 keep-alive (Node's fetch). */

export interface ApiAnswer<T = unknown> {
  readonly status: number;
  readonly body: T;
  readonly headers: Headers;
}

export async function call<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<ApiAnswer<T>> {
  const response = await fetch(`${baseUrl}/api${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: response.status, body: body as T, headers: response.headers };
}

export async function expectStatus<T>(answer: Promise<ApiAnswer<T>>, status: number, what: string): Promise<T> {
  const result = await answer;
  if (result.status !== status) throw new Error(`${what}: expected ${status}, got ${result.status} ${JSON.stringify(result.body)}`);
  return result.body;
}

export interface BenchCustomer {
  readonly id: string;
  readonly email: string;
  readonly accountNumber: string;
  readonly token: string;
}

export interface SignedIn {
  readonly token: string;
  readonly user: { readonly _id: string; readonly account: { readonly number: string } };
}

export const BENCH_PASSWORD = 'bench-password-1';
export const BENCH_PIN = '246810';

/** Runs `work` for every item with at most `concurrency` at once; resolves with the results in order. */
export async function mapLimit<T, R>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const runners = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index]!, index);
    }
  });
  await Promise.all(runners);
  return results;
}

export async function signUpCustomer(baseUrl: string, index: number, runId: string): Promise<BenchCustomer> {
  const email = `bench-${runId}-${index}@bank.example`;
  await expectStatus(
    call(baseUrl, 'POST', '/auth/signup', {
      body: { firstName: `Bench${index}`, lastName: 'Customer', email, phone: '555-0100', password: BENCH_PASSWORD, address: `${index} Bench Street`, state: 'NY' },
    }),
    201,
    `sign-up ${email}`,
  );
  const signedIn = await expectStatus(call<SignedIn>(baseUrl, 'POST', '/auth/signin', { body: { email, password: BENCH_PASSWORD } }), 200, `sign-in ${email}`);
  return { id: signedIn.user._id, email, accountNumber: signedIn.user.account.number, token: signedIn.token };
}
