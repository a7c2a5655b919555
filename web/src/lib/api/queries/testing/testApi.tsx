import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import type { Transaction, User } from '../../types';
import { SessionProvider } from '../../../session/SessionContext';
import { storeSession } from '../../../session/sessionStorage';

export const CUSTOMER_ID = 'c0000000-0000-4000-8000-000000000001';
export const ADMIN_ID = 'a0000000-0000-4000-8000-000000000001';

/** A verified customer with money on both accounts. */
export function sampleUser(overrides: Partial<User> = {}): User {
  return {
    _id: CUSTOMER_ID,
    firstName: 'Grace',
    lastName: 'Hopper',
    email: 'grace@example.com',
    phone: '+1 555 0100',
    location: { address: '1 Navy Way', state: 'VA' },
    account: { number: '1234567890', savings: 1500, checking: 250.5 },
    profilePicture: null,
    verificationStatus: 'verified',
    verification: null,
    isBlocked: false,
    isDisabled: false,
    hasPaymentPin: true,
    isAdmin: false,
    role: 'customer',
    createdAt: '2025-01-02T10:00:00.000Z',
    ...overrides,
  };
}

export function sampleAdmin(overrides: Partial<User> = {}): User {
  return sampleUser({ _id: ADMIN_ID, firstName: 'Ada', lastName: 'Admin', email: 'admin@bank.test', isAdmin: true, role: 'admin', ...overrides });
}

export function sampleTransaction(overrides: Partial<Transaction> = {}): Transaction {
  return {
    _id: 't0000000-0000-4000-8000-000000000001',
    amount: 42.5,
    transactionType: 'debit',
    date: '2025-03-05T10:00:00.000Z',
    description: 'Groceries',
    account: 'checking',
    status: 'completed',
    balanceAfter: 208,
    ...overrides,
  };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

export interface RecordedCall {
  readonly method: string;
  readonly url: URL;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

type Handler = (call: RecordedCall) => Response | Promise<Response>;

/**
 * Replaces fetch with handlers keyed by "METHOD /api/path" (most specific first: an exact path, then a prefix
 * ending in "*"); unknown calls answer 404. Records every call with its parsed JSON body and headers.
 */
export function mockApi(handlers: Record<string, Handler>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const call: RecordedCall = { method, url, headers: { ...(init?.headers as Record<string, string> | undefined) }, body };
    calls.push(call);
    const key = `${method} ${url.pathname}`;
    const handler =
      handlers[key] ??
      Object.entries(handlers).find(([pattern]) => pattern.endsWith('*') && key.startsWith(pattern.slice(0, -1)))?.[1];
    return handler ? handler(call) : json(404, { message: 'Not found' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetchMock,
    calls,
    callsTo: (method: string, path: string) => calls.filter((call) => call.method === method && call.url.pathname === path),
  };
}

function WhereAmI() {
  const location = useLocation();
  return (
    <div>
      <p data-testid="location">{location.pathname}</p>
      <p data-testid="location-state">{JSON.stringify(location.state ?? null)}</p>
    </div>
  );
}

/** Stubs for the routes other features own, so a navigation there is visible in a test. */
const stubRoutes: RouteObject[] = [
  { path: '/signin', element: <WhereAmI /> },
  { path: '/contact', element: <WhereAmI /> },
  { path: '/', element: <WhereAmI /> },
  { path: '*', element: <WhereAmI /> },
];

/** Only a token in storage, no user: the session loads the user itself. */
export interface TokenOnly {
  readonly tokenOnly: string;
}

/**
 * Renders `routes` in a memory router at `path`, with the app's providers, signed in as `user` (or signed out, or
 * with only a stored token).
 */
export function renderRoutes(routes: RouteObject[], path: string, user: User | TokenOnly | null = sampleUser()) {
  localStorage.clear();
  if (user && 'tokenOnly' in user) localStorage.setItem('token', user.tokenOnly);
  else if (user) storeSession('test-token', user);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter([...routes, ...stubRoutes], { initialEntries: [path] });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <RouterProvider router={router} />
      </SessionProvider>
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient };
}
