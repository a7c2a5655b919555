import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi, renderRoutes, type RecordedCall } from '../../../lib/api/queries/testing/testApi';
import type { Statement } from '../../statements/statementTypes';
import { accountRoutes } from '../routes';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-03-15T12:00:00.000Z'));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function statementFor(call: RecordedCall, overrides: Partial<Statement> = {}): Statement {
  const query = call.url.searchParams;
  const account = query.get('account') === 'savings' ? 'savings' : 'checking';
  return {
    account,
    accountNumber: '1234567890',
    customerName: 'Grace Hopper',
    from: query.get('from') ?? '',
    to: query.get('to') ?? '',
    openingBalance: 100,
    closingBalance: 1329.5,
    totalIn: 1250,
    totalOut: 20.5,
    transactions: [
      { _id: 'a', id: 'a', date: `${query.get('from')}T09:00:00.000Z`, description: 'Salary', transactionType: 'credit', type: 'credit', account, kind: 'transfer', amount: 1250, balanceAfter: 1350 },
      { _id: 'b', id: 'b', date: `${query.get('from')}T18:30:00.000Z`, description: 'Groceries', transactionType: 'debit', type: 'debit', account, kind: 'transfer', amount: 20.5, balanceAfter: 1329.5 },
    ],
    ...overrides,
  };
}

describe('/account/statements', () => {
  it('shows the last full month of checking by default: opening, each transaction with its running balance, totals, closing', async () => {
    const { callsTo } = mockApi({ 'GET /api/statements': (call) => json(200, { data: statementFor(call) }) });
    renderRoutes(accountRoutes, '/account/statements');
    expect(await screen.findByTestId('statement-opening')).toHaveTextContent('$100.00');
    const [first] = callsTo('GET', '/api/statements');
    expect(Object.fromEntries(first!.url.searchParams)).toEqual({ account: 'checking', from: '2026-02-01', to: '2026-02-28' });
    expect(first!.headers.Authorization).toBe('Bearer test-token');
    expect(screen.getByTestId('statement-in')).toHaveTextContent('+$1,250.00');
    expect(screen.getByTestId('statement-out')).toHaveTextContent('-$20.50');
    expect(screen.getByTestId('statement-closing')).toHaveTextContent('$1,329.50');
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['Feb 1, 2026', 'Opening balance', '', '$100.00'],
      ['Feb 1, 2026', 'Salary', '+$1,250.00', '$1,350.00'],
      ['Feb 1, 2026', 'Groceries', '-$20.50', '$1,329.50'],
      ['Feb 28, 2026', 'Closing balance', '', '$1,329.50'],
    ]);
    expect(screen.getByRole('link', { name: 'Statements' })).toHaveAttribute('href', '/account/statements');
  });

  it('asks again for another account and month, and for a custom range (not while it runs backwards)', async () => {
    const { callsTo } = mockApi({ 'GET /api/statements': (call) => json(200, { data: statementFor(call) }) });
    renderRoutes(accountRoutes, '/account/statements');
    await screen.findByTestId('statement-opening');
    await userEvent.selectOptions(screen.getByLabelText('Account'), 'savings');
    await userEvent.selectOptions(screen.getByLabelText('Month'), '2025-12');
    await waitFor(() => expect(Object.fromEntries(callsTo('GET', '/api/statements').at(-1)!.url.searchParams)).toEqual({ account: 'savings', from: '2025-12-01', to: '2025-12-31' }));
    await userEvent.click(screen.getByLabelText('Custom dates'));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-01-10' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-01-05' } });
    expect(await screen.findByText('The end date must not be before the start date.')).toBeInTheDocument();
    expect(screen.getByText('Choose the first and last day of the period.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeDisabled();
    const before = callsTo('GET', '/api/statements').length;
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-01' } });
    await waitFor(() => expect(callsTo('GET', '/api/statements')).toHaveLength(before + 1));
    expect(Object.fromEntries(callsTo('GET', '/api/statements').at(-1)!.url.searchParams)).toEqual({ account: 'savings', from: '2026-01-10', to: '2026-03-01' });
  });

  it('says so when the period has no transactions, and shows the server’s error', async () => {
    mockApi({ 'GET /api/statements': (call) => json(200, { data: statementFor(call, { transactions: [], totalIn: 0, totalOut: 0, closingBalance: 100 }) }) });
    const first = renderRoutes(accountRoutes, '/account/statements');
    expect(await screen.findByText('No transactions in this period')).toBeInTheDocument();
    expect(screen.getByTestId('statement-closing')).toHaveTextContent('$100.00');
    first.unmount();
    mockApi({ 'GET /api/statements': () => json(400, { message: 'A statement covers at most 366 days', errors: [] }) });
    renderRoutes(accountRoutes, '/account/statements');
    expect(await screen.findByRole('alert')).toHaveTextContent('A statement covers at most 366 days');
  });

  it('downloads the CSV and the PDF with the session’s token, saving them under the server’s file name', async () => {
    const { callsTo } = mockApi({
      'GET /api/statements': (call) => {
        const format = call.url.searchParams.get('format');
        if (format === 'csv') return new Response('date,transaction_id\r\n', { status: 200, headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="statement-checking-2026-02-01-2026-02-28.csv"' } });
        if (format === 'pdf') return json(503, { message: 'Service temporarily unavailable' });
        return json(200, { data: statementFor(call) });
      },
    });
    const saved: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:statement'), revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderRoutes(accountRoutes, '/account/statements');
    await screen.findByTestId('statement-opening');
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(saved).toEqual(['statement-checking-2026-02-01-2026-02-28.csv']));
    const csvCall = callsTo('GET', '/api/statements').find((call) => call.url.searchParams.get('format') === 'csv')!;
    expect(csvCall.headers.Authorization).toBe('Bearer test-token');
    expect(Object.fromEntries(csvCall.url.searchParams)).toEqual({ account: 'checking', from: '2026-02-01', to: '2026-02-28', format: 'csv' });
    await userEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect(await screen.findByText('Service temporarily unavailable')).toBeInTheDocument();
    expect(saved).toHaveLength(1);
    click.mockRestore();
  });
});
