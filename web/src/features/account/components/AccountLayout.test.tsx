import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderRoutes, sampleUser } from '../../../lib/api/queries/testing/testApi';
import { accountRoutes } from '../routes';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the customer area layout', () => {
  it('has the sidebar entries, the welcome line and an initials avatar linking to /account/info', async () => {
    mockApi({});
    renderRoutes(accountRoutes, '/account/support');
    const nav = await screen.findByRole('navigation', { name: 'Customer area' });
    const names = within(nav)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(names).toEqual(expect.arrayContaining(['Home', 'Transactions', 'Cards', 'Transfer', 'Account', 'Contact']));
    expect(within(nav).getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/account/support');
    expect(screen.getByText(/Welcome,/)).toHaveTextContent('Welcome, Grace');
    const avatar = screen.getByRole('link', { name: 'Your account details' });
    expect(avatar).toHaveAttribute('href', '/account/info');
    expect(avatar).toHaveTextContent('GH');
  });

  it('shows the profile picture, fetched with the bearer token', async () => {
    const createObjectURL = vi.fn(() => 'blob:avatar');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const { callsTo } = mockApi({ 'GET /api/files/f1': () => new Response(new Blob(['png']), { status: 200 }) });
    renderRoutes(accountRoutes, '/account/support', sampleUser({ profilePicture: { url: '/api/files/f1' } }));
    const link = await screen.findByRole('link', { name: 'Your account details' });
    await waitFor(() => expect(link.querySelector('img')).toHaveAttribute('src', 'blob:avatar'));
    expect(callsTo('GET', '/api/files/f1')[0]?.headers.Authorization).toBe('Bearer test-token');
  });

  it('toggles the menu on small screens', async () => {
    mockApi({});
    renderRoutes(accountRoutes, '/account/support');
    const button = await screen.findByRole('button', { name: 'Open menu' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(button);
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Customer area' })).getByRole('link', { name: 'Cards' }));
    expect(await screen.findByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('keeps the public /account/savings page out of the guarded area', async () => {
    mockApi({});
    const { router } = renderRoutes(accountRoutes, '/account/savings', null);
    expect(await screen.findByTestId('location')).toHaveTextContent('/account/savings');
    expect(router.state.location.pathname).toBe('/account/savings');
  });
});
