import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi, renderRoutes, sampleTransaction } from '../../../lib/api/queries/testing/testApi';
import { accountRoutes } from '../routes';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const page = (from: number, count: number) =>
  Array.from({ length: count }, (_, index) => sampleTransaction({ _id: `t${from + index}`, description: `Payment ${from + index}` }));

describe('/account/transactions', () => {
  it('pages with Load more, sending the last id as `before`, until a short page', async () => {
    const { callsTo } = mockApi({
      'GET /api/transaction/complete': ({ url }) => json(200, { data: url.searchParams.get('before') === 't19' ? page(20, 3) : page(0, 20) }),
    });
    renderRoutes(accountRoutes, '/account/transactions');
    const list = await screen.findByRole('list', { name: 'Transactions' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(20);
    const [first] = callsTo('GET', '/api/transaction/complete');
    expect(first?.url.searchParams.get('limit')).toBe('20');
    expect(first?.url.searchParams.has('before')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(23));
    expect(callsTo('GET', '/api/transaction/complete')[1]?.url.searchParams.get('before')).toBe('t19');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('shows each status and the signed amount', async () => {
    mockApi({
      'GET /api/transaction/complete': () =>
        json(200, {
          data: [
            sampleTransaction({ _id: 'a', status: 'pending', transactionType: 'debit', amount: 5 }),
            sampleTransaction({ _id: 'b', status: 'failed' }),
            sampleTransaction({ _id: 'c', status: 'reversed' }),
            sampleTransaction({ _id: 'd', status: 'completed', transactionType: 'credit', amount: 1250 }),
          ],
        }),
    });
    renderRoutes(accountRoutes, '/account/transactions');
    for (const label of ['Pending', 'Failed', 'Reversed', 'Completed']) expect(await screen.findByText(label)).toBeInTheDocument();
    expect(screen.getByText('+$1,250.00')).toBeInTheDocument();
    expect(screen.getByText('-$5.00')).toBeInTheDocument();
  });

  it('words an external transfer\'s debit "Sent" while it waits and "Settled" once completed, an internal one by its status, and shows a return as the server describes it', async () => {
    const transferId = 'f0000000-0000-4000-8000-000000000001';
    mockApi({
      'GET /api/transaction/complete': () =>
        json(200, {
          data: [
            sampleTransaction({ _id: 'r', transactionType: 'credit', amount: 20, status: 'completed', description: 'Returned: R01 Insufficient funds', transferId }),
            sampleTransaction({ _id: 'f', transactionType: 'debit', amount: 20, status: 'failed', description: 'Rent', transferId, external: true }),
            sampleTransaction({ _id: 's', transactionType: 'debit', amount: 30, status: 'pending', description: 'To Ada', transferId: 'f0000000-0000-4000-8000-000000000002', external: true }),
            sampleTransaction({ _id: 'd', transactionType: 'debit', amount: 40, status: 'completed', description: 'To Bob', transferId: 'f0000000-0000-4000-8000-000000000003', external: true }),
            sampleTransaction({ _id: 'i', transactionType: 'debit', amount: 45, status: 'completed', description: 'To a friend here', transferId: 'f0000000-0000-4000-8000-000000000004' }),
            sampleTransaction({ _id: 'p', transactionType: 'debit', amount: 50, status: 'pending', description: 'Staff debit' }),
          ],
        }),
    });
    renderRoutes(accountRoutes, '/account/transactions');
    const list = await screen.findByRole('list', { name: 'Transactions' });
    const [returned, failed, sent, settled, internal, other] = within(list).getAllByRole('listitem');
    expect(returned).toHaveTextContent('Returned: R01 Insufficient funds');
    expect(returned).toHaveTextContent('+$20.00');
    expect(returned).toHaveTextContent('Completed');
    expect(failed).toHaveTextContent('Failed');
    expect(sent).toHaveTextContent(/-\$30\.00\s*Sent$/);
    expect(settled).toHaveTextContent(/-\$40\.00\s*Settled$/);
    expect(internal).toHaveTextContent(/-\$45\.00\s*Completed$/);
    expect(other).toHaveTextContent(/Pending$/);
  });

  it('shows an empty state and an error state', async () => {
    mockApi({ 'GET /api/transaction/complete': () => json(200, { data: [] }) });
    const first = renderRoutes(accountRoutes, '/account/transactions');
    expect(await screen.findByText('No transactions yet')).toBeInTheDocument();
    first.unmount();
    mockApi({ 'GET /api/transaction/complete': () => json(500, { message: 'Something went wrong (request 42)' }) });
    renderRoutes(accountRoutes, '/account/transactions');
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong (request 42)');
  });
});
