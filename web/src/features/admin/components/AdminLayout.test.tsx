import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi, renderRoutes, sampleAdmin } from '../../../lib/api/queries/testing/testApi';
import { adminRoutes } from '../routes';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the admin layout and dashboard', () => {
  it('links to every admin screen and to the queue dashboard served by the API', async () => {
    mockApi({});
    renderRoutes(adminRoutes, '/admin/dashboard', sampleAdmin());
    const main = within(await screen.findByRole('main'));
    expect(await main.findByRole('link', { name: 'Users' })).toHaveAttribute('href', '/admin/users');
    expect(main.getByRole('link', { name: 'Add Transaction' })).toHaveAttribute('href', '/admin/transactions/add-transactions');
    expect(main.getByRole('link', { name: 'Contacts' })).toHaveAttribute('href', '/admin/contacts');
    expect(main.getByRole('link', { name: 'Beneficiaries' })).toHaveAttribute('href', '/admin/beneficiaries');
    expect(main.getByRole('link', { name: 'Users' })).toHaveAccessibleDescription('Find customers, check verification, edit details and balances.');
    expect(main.getByRole('link', { name: 'Queue dashboard' })).toHaveAttribute('href', '/api/admin/queues');
    // One link per screen on the page: the navigation does not repeat the dashboard's links there.
    expect(screen.getAllByRole('link', { name: 'Users' })).toHaveLength(1);
    const nav = within(screen.getByRole('navigation', { name: 'Admin' }));
    expect(nav.getAllByRole('link').map((link) => link.textContent)).toEqual(['Dashboard', 'Security']);
  });

  it('links to every admin screen from the navigation on the other pages', async () => {
    mockApi({ 'GET /api/contacts': () => json(200, { data: [] }) });
    renderRoutes(adminRoutes, '/admin/contacts', sampleAdmin());
    const nav = within(await screen.findByRole('navigation', { name: 'Admin' }));
    expect(nav.getAllByRole('link').map((link) => link.textContent)).toEqual(['Dashboard', 'Users', 'Add Transaction', 'Contacts', 'Beneficiaries', 'Rates', 'Ledger', 'ACH', 'Security']);
  });

  it('logs out: server sign-out, session cleared, back to /admin/login', async () => {
    const { callsTo } = mockApi({ 'POST /api/auth/signout': () => json(200, {}) });
    const { router } = renderRoutes(adminRoutes, '/admin/dashboard', sampleAdmin());
    await userEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    expect(callsTo('POST', '/api/auth/signout')).toHaveLength(1);
    expect(localStorage.getItem('token')).toBeNull();
    expect(await screen.findByRole('heading', { name: 'Admin Login' })).toBeInTheDocument();
  });
});
