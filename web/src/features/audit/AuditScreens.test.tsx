import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { customerId, json, mockApi, renderAudit, sampleEvents, staffUser } from './auditTestUtils';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the audit guard', () => {
  it('sends a visitor who is not signed in to /signin', async () => {
    mockApi({});
    renderAudit('/audit', null);
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('sends a customer to /signin', async () => {
    mockApi({});
    renderAudit('/audit', staffUser('customer'));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('lets an admin in, with a link back to the admin area', async () => {
    mockApi({});
    renderAudit('/audit', staffUser('admin'));
    expect(await screen.findByRole('heading', { name: 'Find a customer' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin/dashboard');
  });
});

describe('finding a customer (/audit)', () => {
  it('searches and links each result to its history', async () => {
    const { calls } = mockApi({
      'GET /api/audit/users': () =>
        json(200, { data: [{ _id: customerId, firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', accountNumber: '1234567890' }] }),
    });
    renderAudit('/audit');
    await userEvent.type(await screen.findByLabelText('Name, e-mail or account number'), 'grace');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    const link = await screen.findByRole('link', { name: 'History of Grace Hopper' });
    expect(link).toHaveAttribute('href', `/audit/users/${customerId}`);
    expect(calls.at(-1)?.searchParams.get('search')).toBe('grace');
    expect(screen.getByText('grace@example.com')).toBeInTheDocument();
  });

  it('pages the results with Next and Previous', async () => {
    const person = (id: string, lastName: string) => ({ _id: id, firstName: 'Ada', lastName, email: `${lastName}@example.com`, accountNumber: '1234567890' });
    const { calls } = mockApi({
      'GET /api/audit/users': (url) =>
        json(200, url.searchParams.get('cursor') === 'more' ? { data: [person(customerId, 'Zeta')], next: null } : { data: [person('u1', 'Alpha')], next: 'more' }),
    });
    renderAudit('/audit?q=ada');
    expect(await screen.findByRole('link', { name: 'History of Ada Alpha' })).toBeInTheDocument();
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Customers pages' })).getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('link', { name: 'History of Ada Zeta' })).toBeInTheDocument();
    expect(calls.at(-1)?.searchParams.get('cursor')).toBe('more');
    expect(calls.at(-1)?.searchParams.get('search')).toBe('ada');
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Customers pages' })).getByRole('button', { name: 'Previous' }));
    expect(await screen.findByRole('link', { name: 'History of Ada Alpha' })).toBeInTheDocument();
  });

  it('says so when nobody matches', async () => {
    mockApi({ 'GET /api/audit/users': () => json(200, { data: [] }) });
    renderAudit('/audit?q=nobody');
    expect(await screen.findByText('No customer matches “nobody”.')).toBeInTheDocument();
  });

  it("shows the server's error", async () => {
    mockApi({ 'GET /api/audit/users': () => json(500, { message: 'Something went wrong (request abc)' }) });
    renderAudit('/audit?q=x');
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong (request abc)');
  });
});

describe("a customer's history (/audit/users/:id)", () => {
  const balances = (at: string) => ({
    userId: customerId,
    at,
    savings: at < '2025-03-03' ? 500 : 475,
    checking: 120,
    transactions: [
      {
        _id: 'tx1',
        amount: 500,
        transactionType: 'credit',
        date: '2025-03-02T10:00:00.000Z',
        description: 'Balance adjustment',
        account: 'savings',
        status: 'completed',
        balanceAfter: 500,
      },
    ],
  });

  function mockHistory() {
    return mockApi({
      [`GET /api/audit/users/${customerId}/events`]: () => json(200, { data: sampleEvents() }),
      [`GET /api/audit/users/${customerId}/balances`]: (url) => json(200, { data: balances(url.searchParams.get('at') ?? '') }),
    });
  }

  it('shows who the customer is, the timeline with actors, and before/after of every staff edit', async () => {
    mockHistory();
    renderAudit(`/audit/users/${customerId}`);
    expect(await screen.findByRole('heading', { name: 'Grace Hopper' })).toBeInTheDocument();
    expect(screen.getByText(/grace@example.com · account 1234567890/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Savings journal lines' })).toHaveAttribute('href', `/audit/ledger/accounts/customer-savings?customerId=${customerId}`);
    expect(screen.getByRole('link', { name: 'Checking journal lines' })).toHaveAttribute('href', `/audit/ledger/accounts/customer-checking?customerId=${customerId}`);
    const timeline = screen.getByRole('heading', { name: /Timeline \(5 events\)/ }).closest('section')!;
    const items = within(timeline).getAllByRole('listitem');
    expect(items).toHaveLength(5);
    const profileEdit = items[3]!;
    expect(within(profileEdit).getByText('ProfileChanged')).toBeInTheDocument();
    expect(within(profileEdit).getByText(/^admin a0000000/)).toBeInTheDocument();
    const row = within(profileEdit).getByRole('row', { name: /phone/ });
    expect(within(row).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['111', '222']);
    const balanceEdit = items[1]!;
    expect(within(within(balanceEdit).getByRole('row', { name: /savings/ })).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      '$0.00',
      '$500.00',
    ]);
  });

  it('names the events of a standing order in words, with the type on hover, and filters by them', async () => {
    const order = { stream: 'standingOrder-o1', staff: false, changes: [], balances: { savings: 475, checking: 120 }, actor: { id: null, role: 'system' } };
    const events = [
      ...sampleEvents(),
      { ...order, id: 'o1', position: '14', revision: 0, type: 'StandingOrderCreated', time: '2025-03-06T10:00:00.000Z', data: {}, summary: 'Standing order of $20.00 from checking' },
      { ...order, id: 'o2', position: '15', revision: 1, type: 'OccurrenceFailed', time: '2025-03-07T10:00:00.000Z', data: {}, summary: 'Standing order payment of 2025-03-07 failed' },
    ];
    mockApi({
      [`GET /api/audit/users/${customerId}/events`]: () => json(200, { data: events }),
      [`GET /api/audit/users/${customerId}/balances`]: (url) => json(200, { data: balances(url.searchParams.get('at') ?? '') }),
    });
    renderAudit(`/audit/users/${customerId}`);
    const timeline = (await screen.findByRole('heading', { name: /Timeline \(7 events\)/ })).closest('section')!;
    const items = within(timeline).getAllByRole('listitem');
    expect(within(items[5]!).getByText('Standing order created')).toHaveAttribute('title', 'StandingOrderCreated');
    expect(within(items[6]!).getByText('Standing order payment failed')).toHaveAttribute('title', 'OccurrenceFailed');
    expect(within(items[3]!).getByText('ProfileChanged')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Event type'), 'Standing order payment failed');
    expect(screen.getByText('1 of 7 events')).toBeInTheDocument();
  });

  it('filters the timeline to staff actions', async () => {
    mockHistory();
    renderAudit(`/audit/users/${customerId}`);
    await screen.findByRole('heading', { name: 'Grace Hopper' });
    await userEvent.click(screen.getByLabelText('Staff actions only'));
    expect(screen.getByText('3 of 5 events')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Event type'), 'ProfileChanged');
    expect(screen.getByText('1 of 5 events')).toBeInTheDocument();
  });

  it('replays the balances at a chosen date and time', async () => {
    const { calls } = mockHistory();
    renderAudit(`/audit/users/${customerId}`);
    expect(await screen.findByTestId('balance-at-savings')).toHaveTextContent('$475.00');
    const input = screen.getByLabelText('Date and time');
    fireEvent.change(input, { target: { value: '2025-03-02T12:30:00' } });
    await waitFor(() => expect(screen.getByTestId('balance-at-savings')).toHaveTextContent('$500.00'));
    const asked = calls.filter((url) => url.pathname.endsWith('/balances')).at(-1)!;
    expect(asked.searchParams.get('at')).toBe(new Date('2025-03-02T12:30:00').toISOString());
    expect(screen.getByRole('table', { name: /Transactions as of then/ })).toHaveTextContent('Balance adjustment');
  });

  it('says how many transactions there were when the answer lists only the newest', async () => {
    mockApi({
      [`GET /api/audit/users/${customerId}/events`]: () => json(200, { data: sampleEvents() }),
      [`GET /api/audit/users/${customerId}/balances`]: (url) => json(200, { data: { ...balances(url.searchParams.get('at') ?? ''), transactionsTotal: 100_000 } }),
    });
    renderAudit(`/audit/users/${customerId}`);
    const table = await screen.findByRole('table', { name: /Transactions as of then/ });
    expect(table.querySelector('caption')).toHaveTextContent(/^Transactions as of then \(100000\), the newest 1 shown$/);
  });

  it('jumps the balances to the moment of an event', async () => {
    const { calls } = mockHistory();
    renderAudit(`/audit/users/${customerId}`);
    await screen.findByRole('heading', { name: 'Grace Hopper' });
    await userEvent.click(screen.getAllByRole('button', { name: 'Balances at this moment' })[1]!);
    await waitFor(() =>
      expect(calls.filter((url) => url.pathname.endsWith('/balances')).at(-1)!.searchParams.get('at')).toBe('2025-03-02T10:00:00.000Z'),
    );
  });

  it('loads a long history a page at a time: the first page, then the next one by its cursor', async () => {
    const all = sampleEvents();
    const { calls } = mockApi({
      [`GET /api/audit/users/${customerId}/events`]: (url) =>
        url.searchParams.get('cursor') === 'page-2' ? json(200, { data: all.slice(3), next: null }) : json(200, { data: all.slice(0, 3), next: 'page-2' }),
      [`GET /api/audit/users/${customerId}/balances`]: (url) => json(200, { data: balances(url.searchParams.get('at') ?? '') }),
    });
    renderAudit(`/audit/users/${customerId}`);
    await screen.findByRole('heading', { name: /Timeline \(3 events, the oldest first; more to load\)/ });
    await userEvent.click(screen.getByRole('button', { name: 'Show more events' }));
    await screen.findByRole('heading', { name: /Timeline \(5 events\)/ });
    expect(screen.queryByRole('button', { name: 'Show more events' })).not.toBeInTheDocument();
    const asked = calls.filter((url) => url.pathname.endsWith('/events'));
    expect(asked.map((url) => url.searchParams.get('cursor'))).toEqual([null, 'page-2']);
  });

  it('keeps the loaded events and says so when the next page fails', async () => {
    const all = sampleEvents();
    mockApi({
      [`GET /api/audit/users/${customerId}/events`]: (url) =>
        url.searchParams.get('cursor') ? json(500, { message: 'Something went wrong' }) : json(200, { data: all.slice(0, 3), next: 'page-2' }),
      [`GET /api/audit/users/${customerId}/balances`]: (url) => json(200, { data: balances(url.searchParams.get('at') ?? '') }),
    });
    renderAudit(`/audit/users/${customerId}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Show more events' }));
    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /Timeline \(3 events/ })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Grace Hopper' })).toBeInTheDocument();
  });

  it('says when there is no such customer', async () => {
    mockApi({ [`GET /api/audit/users/${customerId}/events`]: () => json(404, { message: 'User not found' }) });
    renderAudit(`/audit/users/${customerId}`);
    expect(await screen.findByRole('alert')).toHaveTextContent('No customer with this id.');
  });

  it('downloads the events as CSV with the bearer token', async () => {
    const { fetchMock } = mockApi({
      [`GET /api/audit/users/${customerId}/events`]: (url) =>
        url.searchParams.get('format') === 'csv' ? new Response('position,time\r\n', { headers: { 'Content-Type': 'text/csv' } }) : json(200, { data: sampleEvents() }),
      [`GET /api/audit/users/${customerId}/balances`]: (url) => json(200, { data: balances(url.searchParams.get('at') ?? '') }),
    });
    // jsdom has no object URLs.
    const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
    URL.createObjectURL = vi.fn(() => 'blob:csv');
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderAudit(`/audit/users/${customerId}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const csvCall = fetchMock.mock.calls.find(([input]) => String(input).includes('format=csv'))!;
    expect((csvCall[1]?.headers as Record<string, string>).Authorization).toBe('Bearer test-token');
    const blob = vi.mocked(URL.createObjectURL).mock.calls[0]![0] as Blob;
    expect(await blob.text()).toBe('position,time\r\n');
    click.mockRestore();
    URL.createObjectURL = original.create;
    URL.revokeObjectURL = original.revoke;
  });
});

describe('the staff log (/audit/log)', () => {
  const entry = {
    _id: 'l1',
    time: '2025-03-04T10:00:00.000Z',
    actor: { id: 'a0000000-0000-4000-8000-000000000002', role: 'admin', email: 'boss@bank.test' },
    action: 'ProfileChanged',
    userId: customerId,
    stream: `customer-${customerId}`,
    position: '9',
    summary: 'Profile changed: phone',
    before: { phone: '111' },
    after: { phone: '222' },
  };

  it('lists staff actions with before and after, and sends the filters', async () => {
    const { calls } = mockApi({ 'GET /api/audit/log': () => json(200, { data: [entry] }) });
    renderAudit('/audit/log');
    const table = await screen.findByRole('table', { name: /1 staff actions/ });
    expect(within(table).getByText('boss@bank.test')).toBeInTheDocument();
    expect(within(table).getByText('phone: 111')).toBeInTheDocument();
    expect(within(table).getByText('phone: 222')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Staff member (id or e-mail)'), 'boss@bank.test');
    await userEvent.type(screen.getByLabelText('Action'), 'ProfileChanged');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-03-01T00:00:00' } });
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(calls.at(-1)?.searchParams.get('actor')).toBe('boss@bank.test'));
    const last = calls.at(-1)!;
    expect(last.searchParams.get('type')).toBe('ProfileChanged');
    expect(last.searchParams.get('from')).toBe(new Date('2025-03-01T00:00:00').toISOString());
    expect(last.searchParams.has('to')).toBe(false);
  });

  it('pages with Next and Previous, keeping the filters; new filters start again at the first page', async () => {
    const { calls } = mockApi({
      'GET /api/audit/log': (url) =>
        json(
          200,
          url.searchParams.get('cursor') === 'older'
            ? { data: [{ ...entry, _id: 'l2', summary: 'Profile changed: e-mail', before: { email: 'old@x.test' }, after: { email: 'new@x.test' } }], next: null }
            : { data: [entry], next: 'older' },
        ),
    });
    renderAudit('/audit/log?type=ProfileChanged');
    await screen.findByText('phone: 111');
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Staff log pages' })).getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('email: old@x.test')).toBeInTheDocument();
    expect(calls.at(-1)?.searchParams.get('cursor')).toBe('older');
    expect(calls.at(-1)?.searchParams.get('type')).toBe('ProfileChanged');
    expect(within(screen.getByRole('navigation', { name: 'Staff log pages' })).getByRole('button', { name: 'Next' })).toBeDisabled();
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Staff log pages' })).getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('phone: 111')).toBeInTheDocument();
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Staff log pages' })).getByRole('button', { name: 'Next' }));
    await screen.findByText('email: old@x.test');
    await userEvent.type(screen.getByLabelText('Staff member (id or e-mail)'), 'boss@bank.test');
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(calls.at(-1)?.searchParams.get('actor')).toBe('boss@bank.test'));
    expect(calls.at(-1)?.searchParams.has('cursor')).toBe(false);
    expect(await screen.findByText('phone: 111')).toBeInTheDocument();
  });

  it('shows an empty state', async () => {
    mockApi({ 'GET /api/audit/log': () => json(200, { data: [] }) });
    renderAudit('/audit/log?type=Nothing');
    expect(await screen.findByText('No staff actions match these filters.')).toBeInTheDocument();
  });

  it('shows a loading state, then an error', async () => {
    let fail: (response: Response) => void = () => undefined;
    mockApi({ 'GET /api/audit/log': () => new Promise<Response>((resolve) => (fail = resolve)) });
    renderAudit('/audit/log');
    expect((await screen.findAllByText('Loading the staff log…')).length).toBeGreaterThan(0);
    fail(json(400, { message: 'from must be an ISO date' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('from must be an ISO date');
  });
});

describe('verification (/audit/verify)', () => {
  it('verifies on request and shows an intact record', async () => {
    const { calls } = mockApi({
      'GET /api/audit/verify': () => json(200, { data: { ok: true, checked: { streams: 4, events: 40, balances: 2, standingOrders: 3 }, mismatches: [] } }),
    });
    renderAudit('/audit/verify');
    await screen.findByRole('heading', { name: 'Verify the record' });
    expect(calls).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('status')).toHaveTextContent('The record is intact: 40 events in 4 streams, 2 balances and 3 standing orders checked.');
  });

  it('says which signed checkpoint the log was compared with, and names a stream that no longer reaches it', async () => {
    mockApi({
      'GET /api/audit/verify': () =>
        json(200, {
          data: {
            ok: false,
            checked: { streams: 4, events: 38, balances: 2 },
            checkpoint: { records: 12, streams: 4, writtenAt: '2025-03-01T10:00:00.000Z', position: '40' },
            mismatches: [
              {
                kind: 'checkpoint',
                stream: `account-${customerId}`,
                revision: 8,
                reason: 'checkpointed_events_missing',
                message: 'events 8…9 were deleted',
              },
            ],
          },
        }),
    });
    renderAudit('/audit/verify');
    await userEvent.click(await screen.findByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('1 problem found');
    expect(screen.getByText(/Compared with the signed checkpoint of .* \(4 streams, position 40\)\./)).toBeInTheDocument();
    const row = screen.getByRole('row', { name: new RegExp(`account-${customerId}`) });
    expect(within(row).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['Signed checkpoint', `account-${customerId}`, '8', '—', 'events 8…9 were deleted']);
  });

  it('lists the streams and positions that fail', async () => {
    mockApi({
      'GET /api/audit/verify': () =>
        json(200, {
          data: {
            ok: false,
            checked: { streams: 4, events: 40, balances: 2 },
            mismatches: [
              {
                kind: 'chain',
                stream: `account-${customerId}`,
                revision: 3,
                position: '12',
                reason: 'hash_mismatch',
                message: 'the event no longer matches its hash',
              },
            ],
          },
        }),
    });
    renderAudit('/audit/verify');
    await userEvent.click(await screen.findByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('1 problem found');
    const row = screen.getByRole('row', { name: new RegExp(`account-${customerId}`) });
    expect(within(row).getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      'Hash chain',
      `account-${customerId}`,
      '3',
      '12',
      'the event no longer matches its hash',
    ]);
  });
});
