import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi, renderRoutes, sampleUser } from '../../../lib/api/queries/testing/testApi';
import type { StandingOrder } from '../../standingOrders/standingOrderTypes';
import { accountRoutes } from '../routes';

const user = sampleUser();
const names: Record<string, string> = { '9876543210': 'Alan Turing' };
const today = new Date().toISOString().slice(0, 10);

const suspended: StandingOrder = {
  _id: 'o0000000-0000-4000-8000-000000000001',
  status: 'suspended',
  suspendedReason: '3 payments in a row failed (last: You do not have enough balance)',
  from: 'checking',
  accountNumber: '9876543210',
  bankName: 'Summit Bank',
  routingNumber: '',
  accountType: 'savings',
  recipientName: 'Alan Turing',
  amount: 950,
  description: 'Rent',
  schedule: { frequency: 'monthly', day: 31, firstDate: '2025-01-31' },
  nextDate: null,
  paymentsMade: 1,
  occurrences: [
    { date: '2025-04-30', status: 'failed', reason: 'You do not have enough balance' },
    { date: '2025-01-31', status: 'paid', transferId: 'f0000000-0000-4000-8000-000000000001' },
  ],
  createdAt: '2025-01-02T10:00:00.000Z',
};

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function api(orders: StandingOrder[] = [suspended]) {
  return mockApi({
    'GET /api/auth/user': () => json(200, { data: user }),
    'GET /api/beneficiaries': ({ url }) => {
      const accountNumber = url.searchParams.get('accountNumber') ?? '';
      const name = names[accountNumber];
      return json(200, { data: name ? [{ _id: `b${accountNumber}`, name, accountNumber }] : [] });
    },
    'GET /api/standing-orders': () => json(200, { data: orders }),
    'POST /api/standing-orders': () => json(201, { message: 'Standing order created', data: { ...suspended, status: 'active', nextDate: today, occurrences: [] } }),
    'POST /api/standing-orders/*': () => json(200, { message: 'Standing order resumed', data: { ...suspended, status: 'active' } }),
    'DELETE /api/standing-orders/*': () => json(200, { message: 'Standing order cancelled', data: { ...suspended, status: 'cancelled' } }),
  });
}

async function open() {
  renderRoutes(accountRoutes, '/account/standing-orders', user);
  await screen.findByRole('heading', { name: 'Standing orders' });
}

describe('the standing orders page', () => {
  it('lists the orders with their schedule, why one is suspended and the latest payments; resumes one', async () => {
    const { callsTo } = api();
    await open();
    const order = await screen.findByRole('listitem', { name: '$950.00 to Alan Turing' });
    expect(within(order).getByText('Suspended')).toBeInTheDocument();
    expect(within(order).getByText(/Monthly on the 31st \(or the month’s last day\), from 2025-01-31/)).toBeInTheDocument();
    expect(within(order).getByRole('alert')).toHaveTextContent('Suspended: 3 payments in a row failed (last: You do not have enough balance)');
    const rows = within(within(order).getByRole('table', { name: 'Latest payments' })).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual(['DateStatusDetails', '2025-04-30FailedYou do not have enough balance', '2025-01-31PaidTransfer f0000000']);
    await userEvent.setup().click(within(order).getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(callsTo('POST', `/api/standing-orders/${suspended._id}/resume`)).toHaveLength(1));
  });

  it('creates an order in the transfer’s two steps with a schedule and the payment pin (no balance needed today)', async () => {
    const { callsTo } = api([]);
    await open();
    expect(await screen.findByText('No standing orders yet')).toBeInTheDocument();
    const type = userEvent.setup();
    await type.click(screen.getByRole('button', { name: 'New standing order' }));
    await type.selectOptions(screen.getByLabelText('From account'), 'checking');
    await type.type(screen.getByLabelText('Amount (USD)'), '950');
    await type.type(screen.getByLabelText('Bank name'), 'Summit Bank');
    await type.type(screen.getByLabelText('Account number'), '9876543210');
    await type.selectOptions(screen.getByLabelText('Account type'), 'savings');
    await type.type(screen.getByLabelText('Description'), 'Rent');
    await waitFor(() => expect(screen.getByLabelText('Recipient')).toHaveValue('Alan Turing'));
    await type.selectOptions(screen.getByLabelText('Frequency'), 'weekly');
    await type.selectOptions(screen.getByLabelText('Weekday'), 'Friday');
    await type.selectOptions(screen.getByLabelText('Ends'), 'count');
    await type.type(screen.getByLabelText('Number of payments'), '4');
    await type.click(screen.getByRole('button', { name: 'Next' }));

    const summary = await screen.findByRole('form', { name: 'Confirm standing order' });
    expect(within(summary).getByText(`Weekly on Friday, from ${today}, 4 payments`)).toBeInTheDocument();
    await type.type(within(summary).getByLabelText('Payment pin'), '123456');
    await type.click(within(summary).getByRole('button', { name: 'Complete' }));

    expect(await screen.findByText(`Standing order created. Next payment: ${today}.`)).toBeInTheDocument();
    const [call] = callsTo('POST', '/api/standing-orders');
    expect(call?.body).toEqual({
      from: 'checking',
      amount: 950,
      accountNumber: '9876543210',
      bankName: 'Summit Bank',
      routingNumber: '',
      accountType: 'savings',
      to: 'Alan Turing',
      description: 'Rent',
      paymentPin: '123456',
      schedule: { frequency: 'weekly', day: 5, firstDate: today, count: 4 },
    });
    expect(call?.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a first date in the past in step 1, and shows the server’s refusal in step 2', async () => {
    mockApi({
      'GET /api/auth/user': () => json(200, { data: user }),
      'GET /api/beneficiaries': () => json(200, { data: [{ _id: 'b1', name: 'Alan Turing', accountNumber: '9876543210' }] }),
      'GET /api/standing-orders': () => json(200, { data: [] }),
      'POST /api/standing-orders': () => json(422, { message: 'Incorrect payment pin' }),
    });
    await open();
    const type = userEvent.setup();
    await type.click(await screen.findByRole('button', { name: 'New standing order' }));
    await type.type(screen.getByLabelText('Amount (USD)'), '10');
    await type.type(screen.getByLabelText('Bank name'), 'Summit Bank');
    await type.type(screen.getByLabelText('Account number'), '9876543210');
    await type.selectOptions(screen.getByLabelText('Account type'), 'checking');
    await waitFor(() => expect(screen.getByLabelText('Recipient')).toHaveValue('Alan Turing'));
    const firstDate = screen.getByLabelText('First date');
    await type.clear(firstDate);
    await type.type(firstDate, '2000-01-01');
    await type.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('First date cannot be in the past')).toBeInTheDocument();

    await type.clear(firstDate);
    await type.type(firstDate, today);
    await type.click(screen.getByRole('button', { name: 'Next' }));
    const summary = await screen.findByRole('form', { name: 'Confirm standing order' });
    await type.type(within(summary).getByLabelText('Payment pin'), '000000');
    await type.click(within(summary).getByRole('button', { name: 'Complete' }));
    expect(await within(summary).findByText('Incorrect payment pin')).toBeInTheDocument();
  });
});
