import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes as renderPublicRoutes } from '../../components/testing/renderWithRouter';
import { json, mockApi, renderRoutes, sampleAdmin, sampleUser } from '../../lib/api/queries/testing/testApi';
import { storeSession } from '../../lib/session/sessionStorage';
import { accountRoutes } from '../account/routes';
import { adminRoutes } from '../admin/routes';
import { publicRoutes } from '../public/routes';
import { formatPercent } from './interestFormat';
import type { Interest, Rate } from './interestTypes';
import { StaffInterestPanel } from './StaffInterestPanel';

const CUSTOMER = 'c0000000-0000-4000-8000-00000000beef';

const rates: Rate[] = [
  { account: 'savings', annualRate: 4.125, apy: 4.2, effectiveFrom: '2026-01-01' },
  { account: 'checking', annualRate: 0, apy: 0, effectiveFrom: '2026-01-01' },
  { account: 'savings', annualRate: 4.5, apy: 4.59, effectiveFrom: '2026-04-01' },
];

const interest: Interest = {
  year: 2026,
  annualRate: 4.125,
  apy: 4.2,
  accruedThisMonth: 3.07,
  paidThisYear: 80.84,
  payments: [
    { date: '2026-01-31', amount: 42.47, account: 'savings' },
    { date: '2026-02-28', amount: 38.36, account: 'savings' },
    { date: '2026-02-28', amount: 0.01, account: 'checking' },
  ],
};

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('interest rates and interest in the web app', () => {
  it('formats percents with at least two decimals, as the API gives them', () => {
    expect(formatPercent(5)).toBe('5.00%');
    expect(formatPercent(4.125)).toBe('4.125%');
    expect(formatPercent(0)).toBe('0.00%');
    expect(formatPercent(5.12)).toBe('5.12%');
  });

  it('the public savings page shows the rate in force and its APY from GET /rates, and the next change', async () => {
    const { callsTo } = mockApi({ 'GET /api/rates': () => json(200, { data: rates }) });
    renderPublicRoutes(publicRoutes, { path: '/account/savings' });
    expect(await screen.findByTestId('savings-rate')).toHaveTextContent('4.125%');
    expect(screen.getByTestId('savings-apy')).toHaveTextContent('4.20%');
    expect(screen.getByText(/From 2026-04-01 the rate will be 4\.50% a year \(APY 4\.59%\)/)).toBeInTheDocument();
    expect(screen.getByText(/at 4\.125% a year \(4\.20% APY\)/)).toBeInTheDocument();
    expect(callsTo('GET', '/api/rates')).toHaveLength(1);
  });

  it('the public savings page says so when the rates cannot be loaded', async () => {
    mockApi({ 'GET /api/rates': () => json(503, { message: 'Unavailable' }) });
    renderPublicRoutes(publicRoutes, { path: '/account/savings' });
    expect(await screen.findByText(/rate could not be loaded/)).toBeInTheDocument();
  });

  it("the portal's savings card shows the rate, the APY, this month's accrual and the year's payments, with a link", async () => {
    mockApi({
      'GET /api/auth/user': () => json(200, { data: sampleUser() }),
      'GET /api/transaction': () => json(200, { data: [] }),
      'GET /api/interest': () => json(200, { data: interest }),
    });
    renderRoutes(accountRoutes, '/account/home');
    const card = within(await screen.findByTestId('savings-interest'));
    expect(card.getByText('4.125% a year')).toBeInTheDocument();
    expect(card.getByText('4.20%')).toBeInTheDocument();
    expect(card.getByText('$3.07')).toBeInTheDocument();
    expect(card.getByText('$80.84')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Interest details and statement' })).toHaveAttribute('href', '/account/interest');
  });

  it('the interest page lists the payments of a year, changes year and downloads the PDF', async () => {
    const { callsTo } = mockApi({
      'GET /api/interest': (call) =>
        call.url.searchParams.get('format') === 'pdf'
          ? new Response('%PDF-1.3', { headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="interest-2025.pdf"' } })
          : call.url.searchParams.get('year') === '2025'
            ? json(200, { data: { ...interest, year: 2025, paidThisYear: 0, payments: [] } })
            : json(200, { data: interest }),
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:pdf'), revokeObjectURL: vi.fn() }));
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderRoutes(accountRoutes, '/account/interest');
    const table = await screen.findByRole('table', { name: 'Interest paid in 2026' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual(['January 20262026-01-31Savings$42.47', 'February 20262026-02-28Savings$38.36', 'February 20262026-02-28Checking$0.01']);
    await userEvent.selectOptions(screen.getByLabelText('Year'), '2025');
    expect(await screen.findByText('No interest paid in 2025')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Download 2025 interest statement (PDF)' }));
    await waitFor(() => expect(saved).toEqual(['interest-2025.pdf']));
    const pdfCall = callsTo('GET', '/api/interest').find((call) => call.url.searchParams.get('format') === 'pdf');
    expect(Object.fromEntries(pdfCall!.url.searchParams)).toEqual({ year: '2025', format: 'pdf' });
  });

  it("staff read a customer's interest through the audit route", async () => {
    storeSession('staff-token', sampleAdmin());
    const { callsTo } = mockApi({ [`GET /api/audit/users/${CUSTOMER}/interest`]: () => json(200, { data: interest }) });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <StaffInterestPanel userId={CUSTOMER} className="audit-card" />
      </QueryClientProvider>,
    );
    expect(await screen.findByRole('table', { name: 'Interest paid in 2026' })).toBeInTheDocument();
    expect(screen.getByText('$80.84')).toBeInTheDocument();
    expect(callsTo('GET', `/api/audit/users/${CUSTOMER}/interest`)[0]!.headers.Authorization).toBe('Bearer staff-token');
  });

  it('an admin schedules a rate change; the form checks the rate, and shows the bank’s refusal', async () => {
    let answer: Rate[] = rates;
    const { callsTo } = mockApi({
      'GET /api/rates': () => json(200, { data: answer }),
      'PUT /api/admin/rates': (call) => {
        const body = call.body as { effectiveFrom: string; annualRate: string };
        if (body.effectiveFrom === '2026-01-15') return json(422, { message: 'Rates change from tomorrow at the earliest' });
        answer = [...rates, { account: 'checking', annualRate: 0.25, apy: 0.25, effectiveFrom: body.effectiveFrom }];
        return json(200, { data: answer });
      },
    });
    renderRoutes(adminRoutes, '/admin/rates', sampleAdmin());
    const table = await screen.findByRole('table', { name: 'Rates in force and scheduled changes' });
    expect(within(table).getAllByRole('row').slice(1).map((row) => row.textContent)).toEqual([
      'Savings4.125%4.20%2026-01-01In force',
      'Savings4.50%4.59%2026-04-01Scheduled',
      'Checking0.00%0.00%2026-01-01In force',
    ]);

    await userEvent.type(screen.getByLabelText('Rate (% a year)'), '26');
    await userEvent.click(screen.getByRole('button', { name: 'Schedule the change' }));
    expect(await screen.findByText('Enter a rate from 0 to 25 % with at most 4 decimals')).toBeInTheDocument();
    expect(callsTo('PUT', '/api/admin/rates')).toHaveLength(0);

    await userEvent.selectOptions(screen.getByLabelText('Account'), 'checking');
    await userEvent.clear(screen.getByLabelText('Rate (% a year)'));
    await userEvent.type(screen.getByLabelText('Rate (% a year)'), '0.25');
    await userEvent.type(screen.getByLabelText('Effective from'), '2026-01-15');
    await userEvent.click(screen.getByRole('button', { name: 'Schedule the change' }));
    expect(await screen.findByText('Rates change from tomorrow at the earliest')).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText('Effective from'));
    await userEvent.type(screen.getByLabelText('Effective from'), '2026-05-01');
    await userEvent.click(screen.getByRole('button', { name: 'Schedule the change' }));
    expect(await screen.findByText('Checking pays 0.25% a year from 2026-05-01.')).toBeInTheDocument();
    expect(callsTo('PUT', '/api/admin/rates').at(-1)!.body).toEqual({ account: 'checking', annualRate: '0.25', effectiveFrom: '2026-05-01' });
    expect(await within(table).findByText('2026-05-01')).toBeInTheDocument();
  });
});
