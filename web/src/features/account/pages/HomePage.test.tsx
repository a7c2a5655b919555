import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi, renderRoutes, sampleTransaction, sampleUser } from '../../../lib/api/queries/testing/testApi';
import { accountRoutes } from '../routes';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('/account/home', () => {
  it('reloads the user and shows both balances, shortcuts and the five most recent transactions', async () => {
    const fresh = sampleUser({ account: { number: '1234567890', savings: 2000, checking: 75.25 } });
    const recent = Array.from({ length: 6 }, (_, index) =>
      sampleTransaction({ _id: `t${index}`, description: `Payment ${index}`, transactionType: index % 2 ? 'credit' : 'debit', amount: 10 + index }),
    );
    const { callsTo } = mockApi({
      'GET /api/auth/user': () => json(200, { data: fresh }),
      'GET /api/transaction': () => json(200, { data: recent }),
    });
    renderRoutes(accountRoutes, '/account/home');
    await waitFor(() => expect(screen.getByTestId('savings-balance')).toHaveTextContent('$2,000.00'));
    expect(screen.getByTestId('checking-balance')).toHaveTextContent('$75.25');
    expect(callsTo('GET', '/api/auth/user')).toHaveLength(1);
    expect(screen.getByRole('link', { name: /Transfer money/ })).toHaveAttribute('href', '/account/transfer');
    expect(screen.getByRole('link', { name: /Account details/ })).toHaveAttribute('href', '/account/info');
    expect(screen.getByRole('link', { name: 'View All' })).toHaveAttribute('href', '/account/transactions');
    const list = await screen.findByRole('list', { name: 'Recent transactions' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(5);
    expect(within(list).getByText('-$10.00')).toBeInTheDocument();
    expect(within(list).getByText('+$11.00')).toBeInTheDocument();
    expect(within(list).getAllByText('Completed')).toHaveLength(5);
  });

  it('says so when there are no transactions yet', async () => {
    mockApi({ 'GET /api/auth/user': () => json(200, { data: sampleUser() }), 'GET /api/transaction': () => json(200, { data: [] }) });
    renderRoutes(accountRoutes, '/account/home');
    expect(await screen.findByText('No transactions yet')).toBeInTheDocument();
  });

  it('goes to /signin when the user cannot be reloaded', async () => {
    mockApi({ 'GET /api/auth/user': () => json(503, { message: 'Unavailable' }), 'GET /api/transaction': () => json(200, { data: [] }) });
    const { router } = renderRoutes(accountRoutes, '/account/home');
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
    expect(router.state.location.state).toEqual({ from: '/account/home' });
  });

  it('points a customer who has not verified yet to the verification screen', async () => {
    const awaiting = sampleUser({ verificationStatus: 'awaiting' });
    mockApi({ 'GET /api/auth/user': () => json(200, { data: awaiting }), 'GET /api/transaction': () => json(200, { data: [] }) });
    renderRoutes(accountRoutes, '/account/home', awaiting);
    expect(await screen.findByRole('link', { name: 'Complete your account setup' })).toHaveAttribute('href', '/account-verification');
  });
});
