import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../../lib/api/types';
import { CUSTOMER_ID, json, mockApi, renderRoutes, sampleAdmin, sampleUser, type RecordedCall } from '../../../lib/api/queries/testing/testApi';
import { adminRoutes } from '../routes';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const path = '/admin/transactions/add-transactions';
const grace = sampleUser();
const alan = sampleUser({ _id: 'c0000000-0000-4000-8000-000000000002', firstName: 'Alan', lastName: 'Turing', email: 'alan@example.com', phone: '+44 20 7946 0000', account: { number: '2222222222', savings: 0, checking: 0 } });

/** The server's search, played by a list: a customer matches when the text is in their name, e-mail, phone or number. */
function matching(customers: User[]) {
  return (call: RecordedCall) => {
    const search = (call.url.searchParams.get('search') ?? '').toLowerCase();
    const hits = customers.filter((user) => [user.firstName, user.lastName, user.email, user.phone, user.account.number].join(' ').toLowerCase().includes(search));
    return json(200, { data: hits, next: null });
  };
}

const searches = (calls: RecordedCall[]) => calls.filter((call) => call.method === 'GET' && call.url.pathname === '/api/user/admin').map((call) => call.url.searchParams.get('search') ?? '');

async function ready() {
  await waitFor(() => expect(screen.getByLabelText('User')).toBeEnabled());
  return screen.getByLabelText('Find a customer');
}

describe('Add transaction: finding the customer', () => {
  it('asks the server once typing pauses, not on every key', async () => {
    const { calls } = mockApi({ 'GET /api/user/admin': matching([grace, alan]) });
    renderRoutes(adminRoutes, path, sampleAdmin());
    const box = await ready();
    // Five keys within one moment: the debounce lets only the last text through.
    for (const text of ['t', 'tu', 'tur', 'turi', 'turing']) fireEvent.change(box, { target: { value: text } });
    expect(await screen.findByText('1 customer matches')).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Alan Turing — 2222222222' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /^Grace Hopper/ })).not.toBeInTheDocument();
    expect(searches(calls)).toEqual(['', 'turing']);
  });

  it('shows that it is searching until the server answers', async () => {
    let answer: ((response: Response) => void) | undefined;
    const { calls } = mockApi({
      'GET /api/user/admin': (call) => (call.url.searchParams.has('search') ? new Promise<Response>((resolve) => (answer = resolve)) : matching([grace, alan])(call)),
    });
    renderRoutes(adminRoutes, path, sampleAdmin());
    fireEvent.change(await ready(), { target: { value: 'alan@' } });
    expect(await screen.findByText('Searching customers…')).toBeInTheDocument();
    await waitFor(() => expect(searches(calls)).toEqual(['', 'alan@']));
    expect(screen.getByText('Searching customers…')).toBeInTheDocument();
    answer?.(json(200, { data: [alan], next: null }));
    await waitFor(() => expect(screen.queryByText('Searching customers…')).not.toBeInTheDocument());
    expect(screen.getByText('1 customer matches')).toBeInTheDocument();
  });

  it('says no customer matches when the search finds nobody', async () => {
    mockApi({ 'GET /api/user/admin': matching([grace, alan]) });
    renderRoutes(adminRoutes, path, sampleAdmin());
    await userEvent.setup().type(await ready(), 'nobody at all');
    expect(await screen.findByText('No customer matches “nobody at all”')).toBeInTheDocument();
    expect(within(screen.getByLabelText('User')).getAllByRole('option').map((option) => option.textContent)).toEqual(['Select a user…']);
  });

  it('keeps the chosen customer, shown in full, while the admin searches for someone else, and posts for them', async () => {
    const { callsTo } = mockApi({
      'GET /api/user/admin': matching([grace, alan]),
      [`POST /api/transaction/admin/${alan._id}`]: () => json(201, { message: 'Transaction added successfully', data: {} }),
    });
    renderRoutes(adminRoutes, path, sampleAdmin());
    const type = userEvent.setup();
    await type.type(await ready(), '7946');
    await screen.findByRole('option', { name: 'Alan Turing — 2222222222' });
    await type.selectOptions(screen.getByLabelText('User'), alan._id);
    const chosen = screen.getByRole('group', { name: 'Chosen customer' });
    expect(chosen).toHaveTextContent('Alan Turing · account 2222222222');
    expect(chosen).toHaveTextContent('alan@example.com · +44 20 7946 0000');

    await type.clear(screen.getByLabelText('Find a customer'));
    await type.type(screen.getByLabelText('Find a customer'), 'grace{Enter}');
    await screen.findByRole('option', { name: /^Grace Hopper/ });
    expect(screen.getByLabelText('User')).toHaveValue(alan._id);
    expect(screen.getByRole('group', { name: 'Chosen customer' })).toHaveTextContent('Alan Turing');
    // Enter searched; it did not submit the form.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await type.type(screen.getByLabelText('Amount (USD)'), '10');
    await type.selectOptions(screen.getByLabelText('Type'), 'credit');
    await type.type(screen.getByLabelText('Description'), 'Refund');
    await type.click(screen.getByRole('button', { name: 'Add transaction' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Transaction added successfully');
    expect(callsTo('POST', `/api/transaction/admin/${alan._id}`)).toHaveLength(1);
  });

  it('lets the admin choose another customer, back in the search box', async () => {
    mockApi({ 'GET /api/user/admin': matching([grace, alan]), [`GET /api/user/admin/${CUSTOMER_ID}`]: () => json(200, { data: grace }) });
    renderRoutes(adminRoutes, `${path}?userId=${CUSTOMER_ID}`, sampleAdmin());
    const type = userEvent.setup();
    await waitFor(() => expect(screen.getByLabelText('User')).toHaveValue(CUSTOMER_ID));
    await type.click(within(screen.getByRole('group', { name: 'Chosen customer' })).getByRole('button', { name: 'Choose another customer' }));
    expect(screen.getByLabelText('User')).toHaveValue('');
    expect(screen.queryByRole('group', { name: 'Chosen customer' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Find a customer')).toHaveFocus();
  });
});
