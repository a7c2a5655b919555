import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi, sampleAdmin } from '../../lib/api/queries/testing/testApi';
import { storeSession } from '../../lib/session/sessionStorage';
import { StaffStandingOrdersPanel } from './StaffStandingOrdersPanel';
import type { StandingOrder } from './standingOrderTypes';

const CUSTOMER = 'c0000000-0000-4000-8000-00000000beef';
const order: StandingOrder = {
  _id: 'o0000000-0000-4000-8000-000000000002',
  status: 'active',
  suspendedReason: null,
  from: 'savings',
  accountNumber: '5555555555',
  bankName: '',
  routingNumber: '',
  accountType: 'checking',
  recipientName: 'Linus Pauling',
  amount: 25,
  description: 'Savings plan',
  schedule: { frequency: 'weekly', day: 1, firstDate: '2026-01-05', count: 10 },
  nextDate: '2026-01-12',
  paymentsMade: 1,
  occurrences: [{ date: '2026-01-05', status: 'paid', transferId: 'f0000000-0000-4000-8000-000000000009' }],
  createdAt: '2026-01-02T10:00:00.000Z',
};

beforeEach(() => {
  storeSession('staff-token', sampleAdmin());
});

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('StaffStandingOrdersPanel', () => {
  it("shows a customer's orders from the admin route, without the customer's buttons", async () => {
    const { callsTo } = mockApi({ [`GET /api/user/admin/${CUSTOMER}/standing-orders`]: () => json(200, { data: [order] }) });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <StaffStandingOrdersPanel userId={CUSTOMER} className="admin-card" />
      </QueryClientProvider>,
    );
    const item = await screen.findByRole('listitem', { name: '$25.00 to Linus Pauling' });
    expect(within(item).getByText('Weekly on Monday, from 2026-01-05, 10 payments · from savings · Savings plan')).toBeInTheDocument();
    expect(within(item).getByText('Next payment: 2026-01-12')).toBeInTheDocument();
    expect(within(item).queryByRole('button')).toBeNull();
    expect(callsTo('GET', `/api/user/admin/${CUSTOMER}/standing-orders`)[0]?.headers.Authorization).toBe('Bearer staff-token');
  });
});
