import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi, renderRoutes } from '../../../lib/api/queries/testing/testApi';
import { accountRoutes } from '../routes';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('/account/cards', () => {
  it("requests a card and says 'Card request sent we will get back to you' in a dialog", async () => {
    const { callsTo } = mockApi({ 'POST /api/cards/requests': () => json(201, { message: 'Card request sent we will get back to you' }) });
    renderRoutes(accountRoutes, '/account/cards');
    expect(await screen.findByText('You have no cards yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Request Card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Card request' });
    expect(dialog).toHaveTextContent('Card request sent we will get back to you');
    expect(callsTo('POST', '/api/cards/requests')).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(screen.queryByText('Card request sent we will get back to you')).not.toBeInTheDocument();
  });
});

describe('/account/support', () => {
  it('shows phone, e-mail and a link to /contact', async () => {
    mockApi({});
    renderRoutes(accountRoutes, '/account/support');
    expect(await screen.findByRole('link', { name: 'Go to the contact page' })).toHaveAttribute('href', '/contact');
    expect(screen.getByRole('link', { name: /\+1 \(800\)/ })).toHaveAttribute('href', expect.stringMatching(/^tel:/));
    expect(screen.getByRole('link', { name: /@/ })).toHaveAttribute('href', expect.stringMatching(/^mailto:/));
  });
});

describe('/account/settings', () => {
  it('links to the profile screens, and Logout signs out on the server, clears the session and goes to /signin', async () => {
    const { callsTo } = mockApi({ 'POST /api/auth/signout': () => json(200, { message: 'Signed out' }) });
    const { router } = renderRoutes(accountRoutes, '/account/settings');
    const main = within(await screen.findByRole('main'));
    expect(await main.findByRole('link', { name: /Edit Profile/ })).toHaveAttribute('href', '/account/update-account');
    expect(main.getByRole('link', { name: /Update Password/ })).toHaveAttribute('href', '/account/update-password');
    expect(main.getByRole('link', { name: /Beneficiaries/ })).toHaveAttribute('href', '/account/beneficiaries');
    expect(main.getByRole('link', { name: /^Contact/ })).toHaveAttribute('href', '/account/support');
    await userEvent.click(main.getByRole('button', { name: /^Logout/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
    expect(callsTo('POST', '/api/auth/signout')).toHaveLength(1);
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
  });
});
