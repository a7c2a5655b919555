import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { vi } from 'vitest';
import type { User } from '../../lib/api/types';
import { SessionProvider } from '../../lib/session/SessionContext';
import { storeSession } from '../../lib/session/sessionStorage';
import type { AuditEvent } from './auditTypes';
import { auditRoutes } from './routes';

export function staffUser(role: User['role'] = 'auditor'): User {
  return {
    _id: 'a0000000-0000-4000-8000-000000000001',
    firstName: 'Ada',
    lastName: 'Auditor',
    email: 'ada@bank.test',
    phone: '555',
    location: { address: '1 Main St', state: 'NY' },
    account: { number: '1000000001', savings: 0, checking: 0 },
    profilePicture: null,
    verificationStatus: 'verified',
    verification: null,
    isBlocked: false,
    isDisabled: false,
    hasPaymentPin: false,
    isAdmin: role === 'admin',
    role,
    createdAt: '2025-01-01T00:00:00.000Z',
  };
}

type Handler = (url: URL, init: RequestInit | undefined) => Response | Promise<Response>;

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** Replaces fetch with a router of handlers keyed by "METHOD /api/path"; unknown calls answer 404. */
export function mockApi(handlers: Record<string, Handler>) {
  const calls: URL[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    calls.push(url);
    const handler = handlers[`${init?.method ?? 'GET'} ${url.pathname}`];
    return handler ? handler(url, init) : json(404, { message: 'Not found' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, calls };
}

function WhereAmI() {
  const location = useLocation();
  return <p data-testid="location">{location.pathname}</p>;
}

/** Renders the audit routes in a memory router, signed in as `user` (or signed out). */
export function renderAudit(path: string, user: User | null = staffUser()) {
  localStorage.clear();
  if (user) storeSession('test-token', user);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter(
    [...auditRoutes, { path: '/signin', element: <h1>Sign in</h1> }, { path: '*', element: <WhereAmI /> }],
    { initialEntries: [path] },
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <RouterProvider router={router} />
      </SessionProvider>
    </QueryClientProvider>,
  );
  return { ...view, router };
}

const USER_ID = 'c0000000-0000-4000-8000-000000000001';
const ADMIN_ID = 'a0000000-0000-4000-8000-000000000002';

export const customerId = USER_ID;

/** A small history: registration, an admin balance edit, a credit, a profile edit by an admin, a transfer debit. */
export function sampleEvents(): AuditEvent[] {
  const base = { stream: `customer-${USER_ID}`, staff: false, changes: [], balances: { savings: 0, checking: 0 } };
  return [
    {
      ...base,
      id: 'e1',
      position: '1',
      revision: 0,
      type: 'CustomerRegistered',
      time: '2025-03-01T10:00:00.000Z',
      actor: { id: USER_ID, role: 'customer' },
      data: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', accountNumber: '1234567890', passwordHash: '***' },
      summary: 'Registered Grace Hopper <grace@example.com> as customer, account 1234567890',
    },
    {
      ...base,
      id: 'e2',
      position: '5',
      stream: `account-${USER_ID}`,
      revision: 1,
      type: 'BalanceAdjusted',
      time: '2025-03-02T10:00:00.000Z',
      actor: { id: ADMIN_ID, role: 'admin' },
      staff: true,
      data: { account: 'savings', previousCents: 0, newCents: 50000 },
      summary: 'Balance of savings set $0.00 → $500.00',
      changes: [{ field: 'savings', before: 0, after: 500 }],
      balances: { savings: 500, checking: 0 },
    },
    {
      ...base,
      id: 'e3',
      position: '7',
      stream: `account-${USER_ID}`,
      revision: 2,
      type: 'StaffTransactionPosted',
      time: '2025-03-03T10:00:00.000Z',
      actor: { id: ADMIN_ID, role: 'admin' },
      staff: true,
      data: { account: 'checking', amountCents: 12000, direction: 'credit' },
      summary: 'Staff credit $120.00 on checking — Salary; balance $120.00',
      changes: [{ field: 'checking', before: 0, after: 120 }],
      balances: { savings: 500, checking: 120 },
    },
    {
      ...base,
      id: 'e4',
      position: '9',
      revision: 1,
      type: 'ProfileChanged',
      time: '2025-03-04T10:00:00.000Z',
      actor: { id: ADMIN_ID, role: 'admin' },
      staff: true,
      data: { before: { phone: '111' }, after: { phone: '222' } },
      summary: 'Profile changed: phone',
      changes: [{ field: 'phone', before: '111', after: '222' }],
      balances: { savings: 500, checking: 120 },
    },
    {
      ...base,
      id: 'e5',
      position: '12',
      stream: `account-${USER_ID}`,
      revision: 3,
      type: 'AccountDebited',
      time: '2025-03-05T10:00:00.000Z',
      actor: { id: USER_ID, role: 'customer' },
      data: { account: 'savings', amountCents: 2500, transferId: 't1' },
      summary: 'Debit $25.00 from savings (completed) — Rent; balance $475.00',
      changes: [{ field: 'savings', before: 500, after: 475 }],
      balances: { savings: 475, checking: 120 },
    },
  ];
}
