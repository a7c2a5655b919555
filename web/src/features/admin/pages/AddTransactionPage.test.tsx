import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CUSTOMER_ID, json, mockApi, renderRoutes, sampleAdmin, sampleUser } from '../../../lib/api/queries/testing/testApi';
import { adminRoutes } from '../routes';
import { readTransaction } from './AddTransactionPage';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const path = '/admin/transactions/add-transactions';

function api(answer: () => Response = () => json(201, { message: 'Transaction added successfully', data: {} })) {
  return mockApi({
    'GET /api/user/admin': () => json(200, { data: [sampleUser()] }),
    [`POST /api/transaction/admin/${CUSTOMER_ID}`]: answer,
  });
}

async function fill(values: { user?: boolean; amount?: string; type?: string; description?: string; account?: string; reason?: string }) {
  const type = userEvent.setup();
  const picker = await screen.findByLabelText('User');
  await waitFor(() => expect(picker).toBeEnabled());
  if (values.user) await type.selectOptions(picker, CUSTOMER_ID);
  if (values.amount) await type.type(screen.getByLabelText('Amount (USD)'), values.amount);
  if (values.type) await type.selectOptions(screen.getByLabelText('Type'), values.type);
  if (values.account) await type.selectOptions(screen.getByLabelText('Account'), values.account);
  if (values.description) await type.type(screen.getByLabelText('Description'), values.description);
  if (values.reason) await type.type(screen.getByLabelText('Reason (optional)'), values.reason);
  await type.clear(screen.getByLabelText('Date'));
  await type.type(screen.getByLabelText('Date'), '2025-03-04');
  await type.click(screen.getByRole('button', { name: 'Add transaction' }));
}

describe('/admin/transactions/add-transactions', () => {
  it("says 'All fields are required' when amount, type or description is missing", async () => {
    const { calls } = api();
    renderRoutes(adminRoutes, path, sampleAdmin());
    await fill({ user: true, amount: '100', type: 'credit' });
    expect(await screen.findByRole('alert')).toHaveTextContent('All fields are required');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('wants a user to be selected', async () => {
    api();
    renderRoutes(adminRoutes, path, sampleAdmin());
    await fill({ amount: '100', type: 'credit', description: 'Salary' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Please select a user');
  });

  it("posts the transaction and says 'Transaction added successfully'", async () => {
    const { callsTo } = api();
    renderRoutes(adminRoutes, path, sampleAdmin());
    await fill({ user: true, amount: '1200.50', type: 'credit', account: 'checking', description: 'Salary' });
    expect(await screen.findByRole('status')).toHaveTextContent('Transaction added successfully');
    expect(callsTo('POST', `/api/transaction/admin/${CUSTOMER_ID}`)[0]?.body).toEqual({
      amount: 1200.5,
      transactionType: 'credit',
      date: '2025-03-04',
      description: 'Salary',
      account: 'checking',
    });
    expect(screen.getByLabelText('Amount (USD)')).toHaveValue('');
  });

  it('sends the optional reason and says which ledger account takes the other side', { timeout: 20_000 }, async () => {
    const { callsTo } = api();
    renderRoutes(adminRoutes, path, sampleAdmin());
    const reason = await screen.findByLabelText('Reason (optional)');
    expect(reason).toHaveAccessibleDescription(/The other side of this edit is booked to Staff postings\./);
    expect(reason).toHaveAccessibleDescription(/0 \/ 500 characters/);
    await fill({ user: true, amount: '20', type: 'debit', description: 'Card fee', reason: 'Refund of a duplicate' });
    expect(await screen.findByRole('status')).toHaveTextContent('Transaction added successfully');
    expect(callsTo('POST', `/api/transaction/admin/${CUSTOMER_ID}`)[0]?.body).toMatchObject({ amount: 20, description: 'Card fee', reason: 'Refund of a duplicate' });
    expect(reason).toHaveValue('');
  });

  it('refuses a reason over 500 characters before calling the API', () => {
    const values = { userId: CUSTOMER_ID, amount: '1', transactionType: 'credit', date: '2025-03-04', description: 'x', account: 'savings', reason: 'r'.repeat(501) } as const;
    expect(readTransaction(values)).toEqual({ ok: false, message: 'Reason must be at most 500 characters' });
    expect(readTransaction({ ...values, reason: 'r'.repeat(500) })).toEqual({ ok: true, amountCents: 100 });
  });

  it("says 'Error adding transaction' with the server's reason", async () => {
    api(() => json(422, { message: 'You do not have enough balance' }));
    renderRoutes(adminRoutes, path, sampleAdmin());
    await fill({ user: true, amount: '99999', type: 'debit', description: 'Fee' });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Error adding transaction')).toBeInTheDocument();
    expect(within(alert).getByText('You do not have enough balance')).toBeInTheDocument();
  });

  it('preselects the user given in the address', async () => {
    api();
    renderRoutes(adminRoutes, `${path}?userId=${CUSTOMER_ID}`, sampleAdmin());
    await waitFor(() => expect(screen.getByLabelText('User')).toHaveValue(CUSTOMER_ID));
  });

  it('offers the user given in the address even when the list answered is a first page without them', async () => {
    mockApi({
      'GET /api/user/admin': () => json(200, { data: [sampleUser({ _id: 'u-other', firstName: 'Other', account: { number: '1111111111', savings: 0, checking: 0 } })], next: 'more' }),
      [`GET /api/user/admin/${CUSTOMER_ID}`]: () => json(200, { data: sampleUser() }),
    });
    renderRoutes(adminRoutes, `${path}?userId=${CUSTOMER_ID}`, sampleAdmin());
    await waitFor(() => expect(screen.getByLabelText('User')).toHaveValue(CUSTOMER_ID));
    expect(screen.getByRole('option', { name: /^Grace Hopper/ })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: /^Other/ })).toBeInTheDocument();
  });
});
