import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failOnConsoleError } from '../../components/testing/failOnConsoleError';
import { json, mockApi, renderAudit, staffUser } from '../audit/auditTestUtils';
import { sampleBusinessDate, sampleTrialBalance } from './ledgerTestData';

failOnConsoleError();

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const businessDate = () => json(200, { data: sampleBusinessDate() });

describe('the trial balance (/audit/ledger)', () => {
  it('shows every account, the totals, the instant and that it balances', async () => {
    const { calls } = mockApi({
      'GET /api/admin/business-date': businessDate,
      'GET /api/audit/ledger/trial-balance': () => json(200, { data: sampleTrialBalance() }),
    });
    renderAudit('/audit/ledger');
    expect(await screen.findByText('Balanced')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: '4 accounts' });
    expect(within(table).getByRole('link', { name: 'Customer savings' })).toHaveAttribute('href', '/audit/ledger/accounts/customer-savings');
    expect(within(table).getByRole('row', { name: /Staff adjustments/ })).toHaveTextContent('-$6,200.10');
    expect(screen.getByTestId('total-debits')).toHaveTextContent('$6,575.35');
    expect(screen.getByTestId('total-credits')).toHaveTextContent('$6,575.35');
    expect(screen.getByTestId('trial-balance-as-of')).toHaveTextContent('(now)');
    expect(screen.getByRole('navigation', { name: 'Audit' })).toHaveTextContent('Ledger');
    expect(calls.find((call) => call.pathname === '/api/audit/ledger/trial-balance')?.searchParams.has('at')).toBe(false);
  });

  it('warns when the debits and credits differ', async () => {
    mockApi({
      'GET /api/admin/business-date': businessDate,
      'GET /api/audit/ledger/trial-balance': () => json(200, { data: sampleTrialBalance({ totalCredits: 6575.34, balanced: false }) }),
    });
    renderAudit('/audit/ledger');
    const warning = await screen.findByRole('alert');
    expect(warning).toHaveTextContent('Not balanced: the debits ($6,575.35) differ from the credits ($6,575.34)');
    expect(screen.queryByText('Balanced')).not.toBeInTheDocument();
  });

  it('asks for the trial balance at a chosen instant, keeps it in the address, and shows a refusal', { timeout: 30_000 }, async () => {
    const { calls } = mockApi({
      'GET /api/admin/business-date': businessDate,
      'GET /api/audit/ledger/trial-balance': (url) =>
        url.searchParams.get('at') === new Date('2030-01-01T00:00:00').toISOString()
          ? json(400, { message: 'The instant must not be in the future' })
          : json(200, { data: sampleTrialBalance({ at: url.searchParams.get('at') ?? '2025-03-05T10:00:00.000Z' }) }),
    });
    const { router } = renderAudit('/audit/ledger');
    await screen.findByText('Balanced');
    const picker = () => screen.getByLabelText('As of (your local time)');
    fireEvent.change(picker(), { target: { value: '2025-03-04T12:30:15' } });
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    const at = new Date('2025-03-04T12:30:15').toISOString();
    await waitFor(() => expect(router.state.location.search).toBe(`?at=${encodeURIComponent(at)}`));
    await waitFor(() => expect(calls.at(-1)?.searchParams.get('at')).toBe(at));
    expect(await screen.findByTestId('trial-balance-as-of')).not.toHaveTextContent('(now)');

    expect((picker() as HTMLInputElement).value).toMatch(/^2025-03-04T12:30:15/);
    fireEvent.change(picker(), { target: { value: '2030-01-01T00:00:00' } });
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The instant must not be in the future');

    await userEvent.click(screen.getByRole('button', { name: 'Now' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(picker()).toHaveValue('');
    expect(await screen.findByText('Balanced')).toBeInTheDocument();
  });

  it('downloads the trial balance as CSV and PDF with the bearer token and the instant shown', { timeout: 20_000 }, async () => {
    const { fetchMock } = mockApi({
      'GET /api/admin/business-date': businessDate,
      'GET /api/audit/ledger/trial-balance': (url) =>
        url.searchParams.get('format')
          ? new Response('key,debits\r\n', { headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="trial-balance.csv"' } })
          : json(200, { data: sampleTrialBalance() }),
    });
    const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
    URL.createObjectURL = vi.fn(() => 'blob:file');
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    try {
      renderAudit('/audit/ledger?at=2025-03-04T00%3A00%3A00.000Z');
      await userEvent.click(await screen.findByRole('button', { name: 'Download trial balance CSV' }));
      await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
      await userEvent.click(screen.getByRole('button', { name: 'Download trial balance PDF' }));
      await waitFor(() => expect(click).toHaveBeenCalledTimes(2));
      const downloads = fetchMock.mock.calls.filter(([input]) => String(input).includes('format='));
      expect(downloads.map(([input]) => new URL(String(input), 'http://localhost').search)).toEqual([
        '?at=2025-03-04T00%3A00%3A00.000Z&format=csv',
        '?at=2025-03-04T00%3A00%3A00.000Z&format=pdf',
      ]);
      expect((downloads[0]?.[1]?.headers as Record<string, string>).Authorization).toBe('Bearer test-token');
    } finally {
      click.mockRestore();
      URL.createObjectURL = original.create;
      URL.revokeObjectURL = original.revoke;
    }
  });

  it("shows the server's error", async () => {
    mockApi({
      'GET /api/admin/business-date': businessDate,
      'GET /api/audit/ledger/trial-balance': () => json(500, { message: 'Something went wrong (request r1)' }),
    });
    renderAudit('/audit/ledger');
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong (request r1)');
  });
});

describe('the business date', () => {
  const trial = () => json(200, { data: sampleTrialBalance() });

  it('shows the date, the mode and the last close; no advance in calendar mode', async () => {
    mockApi({ 'GET /api/admin/business-date': businessDate, 'GET /api/audit/ledger/trial-balance': trial });
    renderAudit('/audit/ledger', staffUser('admin'));
    expect(await screen.findByTestId('business-date')).toHaveTextContent('2025-03-05');
    expect(screen.getByText('Calendar (follows the UTC date)')).toBeInTheDocument();
    expect(screen.getByText('2025-03-04')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Advance the business date' })).not.toBeInTheDocument();
  });

  it('offers no advance to an auditor in manual mode', async () => {
    mockApi({ 'GET /api/admin/business-date': () => json(200, { data: sampleBusinessDate({ mode: 'manual' }) }), 'GET /api/audit/ledger/trial-balance': trial });
    renderAudit('/audit/ledger', staffUser('auditor'));
    expect(await screen.findByText('Manual (moved by an admin)')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Advance the business date' })).not.toBeInTheDocument();
  });

  it('lets an admin in manual mode advance it after a confirmation, and cancel', { timeout: 30_000 }, async () => {
    let current = sampleBusinessDate({ mode: 'manual', lastClosedDate: null });
    const { calls, fetchMock } = mockApi({
      'GET /api/admin/business-date': () => json(200, { data: current }),
      'GET /api/audit/ledger/trial-balance': trial,
      'POST /api/admin/business-date/advance': () => {
        current = { ...current, businessDate: '2025-03-07', lastClosedDate: '2025-03-06' };
        return json(200, { data: { businessDate: '2025-03-07', closed: ['2025-03-05', '2025-03-06'] } });
      },
    });
    renderAudit('/audit/ledger', staffUser('admin'));
    expect(await screen.findByText('No day closed yet')).toBeInTheDocument();
    const days = screen.getByLabelText('Days to close');

    await userEvent.clear(days);
    await userEvent.type(days, '367');
    await userEvent.click(screen.getByRole('button', { name: 'Advance the business date' }));
    expect(await screen.findByText('Days must be a whole number from 1 to 366')).toBeInTheDocument();

    await userEvent.clear(days);
    await userEvent.type(days, '1');
    await userEvent.click(screen.getByRole('button', { name: 'Advance the business date' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent('Close 2025-03-05?');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((call) => call.pathname === '/api/admin/business-date/advance')).toHaveLength(0);

    await userEvent.clear(days);
    await userEvent.type(days, '2');
    await userEvent.click(screen.getByRole('button', { name: 'Advance the business date' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Close 2 business days?');
    expect(dialog).toHaveTextContent('The close of business runs for 2025-03-05 and the 1 following day');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close the days' }));
    expect(await screen.findByText('Closed 2025-03-05, 2025-03-06. The business date is now 2025-03-07.')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ days: 2 });
    await waitFor(() => expect(screen.getByTestId('business-date')).toHaveTextContent('2025-03-07'));
  });

  it("shows the server's refusal of an advance", { timeout: 20_000 }, async () => {
    mockApi({
      'GET /api/admin/business-date': () => json(200, { data: sampleBusinessDate({ mode: 'manual' }) }),
      'GET /api/audit/ledger/trial-balance': trial,
      'POST /api/admin/business-date/advance': () => json(409, { message: 'The business date follows the calendar' }),
    });
    renderAudit('/audit/ledger', staffUser('admin'));
    await userEvent.click(await screen.findByRole('button', { name: 'Advance the business date' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Close the day' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The business date follows the calendar');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
