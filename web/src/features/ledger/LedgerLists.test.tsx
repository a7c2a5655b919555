import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failOnConsoleError } from '../../components/testing/failOnConsoleError';
import { json, mockApi, renderAudit } from '../audit/auditTestUtils';
import { CUSTOMER, sampleAccounts, sampleBusinessDate, sampleDay, sampleEntry, sampleReconciliation } from './ledgerTestData';

failOnConsoleError();

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const common = {
  'GET /api/admin/business-date': () => json(200, { data: sampleBusinessDate() }),
  'GET /api/audit/ledger/accounts': () => json(200, { data: sampleAccounts() }),
};

describe('the chart of accounts (/audit/ledger/accounts)', () => {
  it('lists every account with its balance, each linking to its entries', async () => {
    mockApi(common);
    renderAudit('/audit/ledger/accounts');
    const table = await screen.findByRole('table', { name: '4 accounts, by code' });
    const row = within(table).getByRole('row', { name: /Customer checking/ });
    expect(row).toHaveTextContent('2010');
    expect(row).toHaveTextContent('liability');
    expect(row).toHaveTextContent('$1,424.85');
    expect(within(row).getByRole('link', { name: 'Customer checking' })).toHaveAttribute('href', '/audit/ledger/accounts/customer-checking');
    expect(screen.getByRole('link', { name: 'Accounts' })).toHaveAttribute('aria-current', 'page');
  });

  it("shows the server's error", async () => {
    mockApi({ ...common, 'GET /api/audit/ledger/accounts': () => json(403, { message: 'Forbidden' }) });
    renderAudit('/audit/ledger/accounts');
    expect(await screen.findByRole('alert')).toHaveTextContent('Forbidden');
  });
});

describe("an account's entries (/audit/ledger/accounts/:key)", () => {
  const path = '/api/audit/ledger/accounts/customer-savings/entries';

  it('sends the filters of the address, pages with Show more and downloads the CSV with the same filters', { timeout: 30_000 }, async () => {
    const { calls } = mockApi({
      ...common,
      [`GET ${path}`]: (url) =>
        url.searchParams.get('cursor') === 'c2'
          ? json(200, { data: [sampleEntry({ position: '40', side: 'debit', amount: 300, description: 'Transfer to checking' })], next: null })
          : json(200, { data: [sampleEntry()], next: 'c2' }),
    });
    renderAudit(`/audit/ledger/accounts/customer-savings?customerId=${CUSTOMER}&from=2025-03-01`);
    expect(await screen.findByRole('heading', { name: '2000 Customer savings' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: '1 journal line shown, more to load, oldest first' });
    expect(within(table).getByRole('row', { name: /Opening deposit/ })).toHaveTextContent('$5,000.00');
    expect(within(table).getByRole('link', { name: CUSTOMER.slice(0, 8) })).toHaveAttribute('href', `/audit/users/${CUSTOMER}`);
    const first = calls.find((call) => call.pathname === path);
    expect(first?.searchParams.get('customerId')).toBe(CUSTOMER);
    expect(first?.searchParams.get('from')).toBe('2025-03-01');
    expect(first?.searchParams.has('to')).toBe(false);
    expect(screen.getByLabelText('Customer id')).toHaveValue(CUSTOMER);

    await userEvent.click(screen.getByRole('button', { name: 'Show more lines' }));
    expect(await screen.findByRole('table', { name: '2 journal lines, oldest first' })).toBeInTheDocument();
    expect(calls.at(-1)?.searchParams.get('cursor')).toBe('c2');
    expect(calls.at(-1)?.searchParams.get('customerId')).toBe(CUSTOMER);
    expect(screen.queryByRole('button', { name: 'Show more lines' })).not.toBeInTheDocument();

    const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
    URL.createObjectURL = vi.fn(() => 'blob:file');
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    try {
      await userEvent.click(screen.getByRole('button', { name: 'Download journal lines CSV' }));
      await waitFor(() => expect(click).toHaveBeenCalled());
      const csv = calls.find((call) => call.searchParams.get('format') === 'csv');
      expect(csv?.pathname).toBe(path);
      expect(csv?.searchParams.get('customerId')).toBe(CUSTOMER);
      expect(csv?.searchParams.get('from')).toBe('2025-03-01');
      expect(csv?.searchParams.has('cursor')).toBe(false);
    } finally {
      click.mockRestore();
      URL.createObjectURL = original.create;
      URL.revokeObjectURL = original.revoke;
    }
  });

  it('applies new filters from the form into the address and says when nothing matches', { timeout: 30_000 }, async () => {
    const { calls } = mockApi({ ...common, [`GET ${path}`]: (url) => json(200, { data: url.searchParams.get('to') ? [] : [sampleEntry()], next: null }) });
    const { router } = renderAudit('/audit/ledger/accounts/customer-savings');
    expect(await screen.findByRole('table', { name: '1 journal line, oldest first' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('To (business date)'), '2025-01-31');
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(router.state.location.search).toBe('?to=2025-01-31'));
    expect(await screen.findByText('No journal lines match these filters.')).toBeInTheDocument();
    expect(calls.at(-1)?.searchParams.get('to')).toBe('2025-01-31');
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByRole('table', { name: '1 journal line, oldest first' })).toBeInTheDocument();
  });

  it('names an unknown account', async () => {
    mockApi({ ...common, 'GET /api/audit/ledger/accounts/nope/entries': () => json(404, { message: 'Not found' }) });
    renderAudit('/audit/ledger/accounts/nope');
    expect(await screen.findByRole('alert')).toHaveTextContent('No ledger account with the key “nope”.');
    expect(screen.queryByRole('button', { name: 'Download journal lines CSV' })).not.toBeInTheDocument();
  });
});

describe('the reconciliation (/audit/ledger/reconciliation)', () => {
  it('shows differences of zero as such, the open items on request', async () => {
    mockApi({ ...common, 'GET /api/audit/ledger/reconciliation': () => json(200, { data: sampleReconciliation() }) });
    renderAudit('/audit/ledger/reconciliation');
    expect(await screen.findByText('Reconciled')).toBeInTheDocument();
    const differences = screen.getAllByTestId('difference');
    expect(differences).toHaveLength(4);
    for (const cell of differences) {
      expect(cell).toHaveTextContent('$0.00reconciled');
      expect(cell).toHaveClass('ledger-ok');
    }
    expect(screen.getByText('Open items of ACH outbound')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Customer savings' })).toHaveAttribute('href', '/audit/ledger/accounts/customer-savings');
  });

  it('shows any other difference in red, with the open items', async () => {
    const broken = sampleReconciliation({
      ok: false,
      controls: [{ key: 'customer-savings', balance: 4700, subledgerTotal: 4699.99, difference: 0.01 }],
      clearing: [
        {
          key: 'transfers-in-transit',
          balance: 0.3,
          openItems: [
            { transferId: 't1', amount: 0.1, since: '2025-03-05T09:00:00.000Z' },
            { transferId: 't2', amount: 0.1, since: '2025-03-05T09:01:00.000Z' },
          ],
        },
      ],
    });
    mockApi({ ...common, 'GET /api/audit/ledger/reconciliation': () => json(200, { data: broken }) });
    renderAudit('/audit/ledger/reconciliation');
    expect(await screen.findByRole('alert')).toHaveTextContent('Not reconciled');
    const [control, clearing] = screen.getAllByTestId('difference');
    expect(control).toHaveTextContent('$0.01differs');
    expect(control).toHaveClass('ledger-bad');
    // 0.30 − (0.10 + 0.10) in cents, not floating point.
    expect(clearing).toHaveTextContent('$0.10differs');
    expect(clearing).toHaveClass('ledger-bad');
    const items = screen.getByRole('table', { name: '2 open items' });
    expect(within(items).getByRole('row', { name: /t2/ })).toHaveTextContent('$0.10');
  });
});

describe('the day closes (/audit/ledger/days)', () => {
  it('lists the closes with their totals and a shortened hash whose title is the whole one, and pages with Show more', { timeout: 20_000 }, async () => {
    const older = sampleDay({ businessDate: '2025-03-03', balanced: false, totalCredits: 1, journalHash: 'b'.repeat(64) });
    const { calls } = mockApi({
      ...common,
      'GET /api/audit/ledger/days': (url) => json(200, url.searchParams.get('cursor') ? { data: [older], next: null } : { data: [sampleDay()], next: 'd2' }),
    });
    renderAudit('/audit/ledger/days');
    const row = await screen.findByRole('row', { name: /2025-03-04/ });
    expect(row).toHaveTextContent('$6,575.35');
    expect(row).toHaveTextContent('Balanced');
    const hash = within(row).getByTitle(sampleDay().journalHash);
    expect(hash).toHaveTextContent(/^a3f1c2d4e5b6…$/);
    await userEvent.click(screen.getByRole('button', { name: 'Show more days' }));
    const second = await screen.findByRole('row', { name: /2025-03-03/ });
    expect(second).toHaveTextContent('Out of balance');
    expect(second).toHaveClass('ledger-row-bad');
    expect(calls.at(-1)?.searchParams.get('cursor')).toBe('d2');
  });

  it('says when no day has been closed yet', async () => {
    mockApi({ ...common, 'GET /api/audit/ledger/days': () => json(200, { data: [], next: null }) });
    renderAudit('/audit/ledger/days');
    expect(await screen.findByText('No business day has been closed yet.')).toBeInTheDocument();
  });
});
