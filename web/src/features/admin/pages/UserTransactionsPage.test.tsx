import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CUSTOMER_ID, json, mockApi, renderRoutes, sampleAdmin, sampleTransaction, sampleUser } from '../../../lib/api/queries/testing/testApi';
import type { Transaction } from '../../../lib/api/types';
import { adminRoutes } from '../routes';
import { DELETE_TRANSACTION_QUESTION } from './UserTransactionsPage';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('/admin/transactions/:id', () => {
  it('lists the transactions; Delete reverses after a native confirmation (nothing when cancelled); reversed ones have no Delete', async () => {
    const transactions: Transaction[] = [
      sampleTransaction({ _id: 'x1', description: 'Salary', transactionType: 'credit', amount: 1000 }),
      sampleTransaction({ _id: 'x2', description: 'Old fee', status: 'reversed' }),
    ];
    const { callsTo } = mockApi({
      [`GET /api/user/admin/${CUSTOMER_ID}`]: () => json(200, { data: sampleUser() }),
      [`GET /api/transaction/admin/${CUSTOMER_ID}`]: () => json(200, { data: transactions }),
      'DELETE /api/transaction/admin/x1': () => {
        transactions[0] = { ...transactions[0]!, status: 'reversed' };
        return json(200, { message: 'Transaction reversed' });
      },
    });
    renderRoutes(adminRoutes, `/admin/transactions/${CUSTOMER_ID}`, sampleAdmin());
    expect(await screen.findByRole('heading', { name: 'Transactions of Grace Hopper' })).toBeInTheDocument();
    const table = await screen.findByRole('table');
    const oldFee = within(table).getByText('Old fee').closest('tr')!;
    expect(within(oldFee).getByText('Reversed')).toBeInTheDocument();
    expect(within(oldFee).queryByRole('button')).not.toBeInTheDocument();
    const salary = within(table).getByText('Salary').closest('tr')!;
    expect(within(salary).getByText('+$1,000.00')).toBeInTheDocument();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    // Cancelled: nothing is sent.
    await userEvent.click(within(salary).getByRole('button', { name: /^Delete Salary/ }));
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(confirm).toHaveBeenLastCalledWith('Are you sure you want to delete this transaction?');
    expect(callsTo('DELETE', '/api/transaction/admin/x1')).toHaveLength(0);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    // Accepted: the transaction is reversed.
    await userEvent.click(within(salary).getByRole('button', { name: /^Delete Salary/ }));
    expect(confirm).toHaveBeenCalledTimes(2);
    expect(confirm).toHaveBeenLastCalledWith(DELETE_TRANSACTION_QUESTION);
    expect(await screen.findByRole('status')).toHaveTextContent('Transaction reversed');
    expect(callsTo('DELETE', '/api/transaction/admin/x1')).toHaveLength(1);
    await screen.findAllByText('Reversed').then((badges) => expect(badges).toHaveLength(2));
    expect(within(screen.getByRole('table')).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
  });

  it('shows an empty state', async () => {
    mockApi({
      [`GET /api/user/admin/${CUSTOMER_ID}`]: () => json(200, { data: sampleUser() }),
      [`GET /api/transaction/admin/${CUSTOMER_ID}`]: () => json(200, { data: [] }),
    });
    renderRoutes(adminRoutes, `/admin/transactions/${CUSTOMER_ID}`, sampleAdmin());
    expect(await screen.findByText('No transactions yet.')).toBeInTheDocument();
  });

  it("shows the server's refusal of a deletion", async () => {
    mockApi({
      [`GET /api/user/admin/${CUSTOMER_ID}`]: () => json(200, { data: sampleUser() }),
      [`GET /api/transaction/admin/${CUSTOMER_ID}`]: () => json(200, { data: [sampleTransaction({ _id: 'x1', description: 'Salary' })] }),
      'DELETE /api/transaction/admin/x1': () => json(409, { message: 'This transaction is already reversed' }),
    });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderRoutes(adminRoutes, `/admin/transactions/${CUSTOMER_ID}`, sampleAdmin());
    await userEvent.click(await screen.findByRole('button', { name: /^Delete Salary/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This transaction is already reversed');
  });

  it('pages the transactions with Next and Previous through the cursors the API answers', async () => {
    const { callsTo } = mockApi({
      [`GET /api/user/admin/${CUSTOMER_ID}`]: () => json(200, { data: sampleUser() }),
      [`GET /api/transaction/admin/${CUSTOMER_ID}`]: ({ url }) =>
        json(
          200,
          url.searchParams.get('cursor') === 'older'
            ? { data: [sampleTransaction({ _id: 'x3', description: 'Old rent' })], next: null }
            : { data: [sampleTransaction({ _id: 'x1', description: 'New salary' })], next: 'older' },
        ),
    });
    renderRoutes(adminRoutes, `/admin/transactions/${CUSTOMER_ID}`, sampleAdmin());
    expect(await screen.findByText('New salary')).toBeInTheDocument();
    expect(callsTo('GET', `/api/transaction/admin/${CUSTOMER_ID}`)[0]!.url.searchParams.get('limit')).toBe('50');
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Transactions pages' })).getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Old rent')).toBeInTheDocument();
    expect(screen.queryByText('New salary')).not.toBeInTheDocument();
    const pager = screen.getByRole('navigation', { name: 'Transactions pages' });
    expect(within(pager).getByRole('button', { name: 'Next' })).toBeDisabled();
    await userEvent.click(within(pager).getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('New salary')).toBeInTheDocument();
  });
});
