import { screen, within, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CUSTOMER_ID, json, mockApi, renderRoutes, sampleAdmin, sampleUser } from '../../../lib/api/queries/testing/testApi';
import { adminRoutes } from '../routes';
import { DELETE_FIRST_QUESTION, DELETE_SECOND_QUESTION } from './UserDetailPage';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const customer = sampleUser({
  verificationStatus: 'pending',
  verification: { documentType: 'passport', documentFront: { url: '/api/files/front1' }, documentBack: { url: '/api/files/back1' } },
  cardRequests: [{ _id: 'r1', cardType: 'cashback', status: 'requested', requestedAt: '2025-03-01T12:00:00.000Z' }],
});

function api(overrides: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    [`GET /api/user/admin/${CUSTOMER_ID}`]: () => json(200, { data: customer }),
    [`GET /api/user/admin/${CUSTOMER_ID}/second-factor`]: () => json(200, { data: { enabled: true, enrolledAt: '2025-06-01T10:00:00.000Z', recoveryCodesLeft: 9 } }),
    [`GET /api/user/admin/${CUSTOMER_ID}/standing-orders`]: () => json(200, { data: [] }),
    'GET /api/user/admin': () => json(200, { data: [] }),
    'GET /api/files/*': () => new Response(new Blob(['image']), { status: 200, headers: { 'Content-Type': 'image/png' } }),
    ...overrides,
  });
}

describe('/admin/users/:id', () => {
  it('shows the details, the documents (fetched with the token), the card requests and the edit links', async () => {
    let next = 0;
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => `blob:doc${(next += 1)}`), revokeObjectURL: vi.fn() }));
    const { callsTo } = api();
    renderRoutes(adminRoutes, `/admin/users/${CUSTOMER_ID}`, sampleAdmin());
    expect(await screen.findByRole('heading', { name: 'Grace Hopper', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('1234567890')).toBeInTheDocument();
    expect(screen.getByText('$1,500.00')).toBeInTheDocument();
    expect(screen.getByText('Passport', { exact: false })).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: 'Document front' })).toHaveAttribute('src', expect.stringMatching(/^blob:doc/));
    expect(await screen.findByRole('img', { name: 'Document back' })).toBeInTheDocument();
    expect(callsTo('GET', '/api/files/front1')[0]?.headers.Authorization).toBe('Bearer test-token');
    expect(screen.getByText(/cashback card requested/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit info' })).toHaveAttribute('href', `/admin/users/edit/${CUSTOMER_ID}`);
    expect(screen.getByRole('link', { name: 'Edit balances' })).toHaveAttribute('href', `/admin/users/account/${CUSTOMER_ID}`);
    expect(screen.getByRole('link', { name: 'Savings journal lines' })).toHaveAttribute('href', `/audit/ledger/accounts/customer-savings?customerId=${CUSTOMER_ID}`);
    expect(screen.getByRole('link', { name: 'Checking journal lines' })).toHaveAttribute('href', `/audit/ledger/accounts/customer-checking?customerId=${CUSTOMER_ID}`);
    expect(screen.getByRole('link', { name: 'Transactions' })).toHaveAttribute('href', `/admin/transactions/${CUSTOMER_ID}`);
  });

  it('deletes only after two native confirmations, then goes back to /admin/users without reloading the deleted user', async () => {
    const { callsTo } = api({ [`DELETE /api/user/admin/${CUSTOMER_ID}`]: () => json(200, { message: 'User deleted' }) });
    const questions: string[] = [];
    const confirm = vi.spyOn(window, 'confirm').mockImplementation((message) => {
      questions.push(String(message));
      // Nothing is sent while a question is open.
      expect(callsTo('DELETE', `/api/user/admin/${CUSTOMER_ID}`)).toHaveLength(0);
      return true;
    });
    const { router } = renderRoutes(adminRoutes, `/admin/users/${CUSTOMER_ID}`, sampleAdmin());
    await userEvent.click(await screen.findByRole('button', { name: 'Delete user' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/users'));
    expect(questions).toEqual(['Are you sure you want to delete this user?', 'Are you really sure? This cannot be undone.']);
    expect(questions).toEqual([DELETE_FIRST_QUESTION, DELETE_SECOND_QUESTION]);
    expect(confirm).toHaveBeenCalledTimes(2);
    expect(callsTo('DELETE', `/api/user/admin/${CUSTOMER_ID}`)).toHaveLength(1);
    // The users screen loads its code first (a transition): the message shows when it is there.
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('User deleted'));
    expect(callsTo('GET', `/api/user/admin/${CUSTOMER_ID}`)).toHaveLength(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('deletes nothing when the first question is cancelled (and does not ask the second)', async () => {
    const { callsTo } = api();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { router } = renderRoutes(adminRoutes, `/admin/users/${CUSTOMER_ID}`, sampleAdmin());
    await userEvent.click(await screen.findByRole('button', { name: 'Delete user' }));
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to delete this user?');
    expect(callsTo('DELETE', `/api/user/admin/${CUSTOMER_ID}`)).toHaveLength(0);
    expect(router.state.location.pathname).toBe(`/admin/users/${CUSTOMER_ID}`);
    expect(screen.getByRole('button', { name: 'Delete user' })).toBeEnabled();
  });

  it('deletes nothing when the second question is cancelled', async () => {
    const { callsTo } = api();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(true).mockReturnValueOnce(false);
    const { router } = renderRoutes(adminRoutes, `/admin/users/${CUSTOMER_ID}`, sampleAdmin());
    await userEvent.click(await screen.findByRole('button', { name: 'Delete user' }));
    expect(confirm.mock.calls).toEqual([['Are you sure you want to delete this user?'], ['Are you really sure? This cannot be undone.']]);
    expect(callsTo('DELETE', `/api/user/admin/${CUSTOMER_ID}`)).toHaveLength(0);
    expect(router.state.location.pathname).toBe(`/admin/users/${CUSTOMER_ID}`);
  });

  it("shows the server's refusal of the deletion and stays on the user", async () => {
    api({ [`DELETE /api/user/admin/${CUSTOMER_ID}`]: () => json(409, { message: 'This user cannot be deleted' }) });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { router } = renderRoutes(adminRoutes, `/admin/users/${CUSTOMER_ID}`, sampleAdmin());
    await userEvent.click(await screen.findByRole('button', { name: 'Delete user' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This user cannot be deleted');
    expect(router.state.location.pathname).toBe(`/admin/users/${CUSTOMER_ID}`);
  });

  it('resets the second factor after a confirmation that asks for the reason', async () => {
    const { callsTo } = api({ [`POST /api/user/admin/${CUSTOMER_ID}/second-factor/reset`]: () => json(200, { message: 'Second factor reset', data: { enabled: false } }) });
    renderRoutes(adminRoutes, `/admin/users/${CUSTOMER_ID}`, sampleAdmin());
    expect(await screen.findByText('On, 9 recovery codes left')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Reset second factor' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset second factor' }));
    expect(await within(dialog).findByText('A reason is required')).toBeInTheDocument();
    expect(callsTo('POST', `/api/user/admin/${CUSTOMER_ID}/second-factor/reset`)).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'Lost phone, identity checked');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset second factor' }));
    expect(await screen.findByText(/Second factor reset: .* signs in with the password alone/)).toBeInTheDocument();
    expect(callsTo('POST', `/api/user/admin/${CUSTOMER_ID}/second-factor/reset`)[0]?.body).toEqual({ reason: 'Lost phone, identity checked' });
  });

  it("shows the server's error when the user cannot be loaded", async () => {
    api({ [`GET /api/user/admin/${CUSTOMER_ID}`]: () => json(404, { message: 'User not found' }) });
    renderRoutes(adminRoutes, `/admin/users/${CUSTOMER_ID}`, sampleAdmin());
    expect(await screen.findByRole('alert')).toHaveTextContent('User not found');
  });
});
