import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi, renderRoutes, sampleUser } from '../../lib/api/queries/testing/testApi';
import { accountRoutes } from '../account/routes';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the e-mail confirmation banner of the portal', () => {
  it('shows while the address is not confirmed and sends a new link with "Send again"', async () => {
    const { callsTo } = mockApi({
      'POST /api/user/verify-email': () => json(202, { message: 'We have sent a new link to your e-mail address' }),
      'GET /api/auth/user': () => json(200, { data: sampleUser({ emailVerified: false }) }),
    });
    renderRoutes(accountRoutes, '/account/settings', sampleUser({ emailVerified: false, email: 'grace@example.com' }));
    const banner = within(await screen.findByRole('region', { name: 'Confirm your e-mail address' }));
    expect(banner.getByText('grace@example.com')).toBeInTheDocument();
    await userEvent.click(banner.getByRole('button', { name: 'Send again' }));
    expect(await banner.findByText('We have sent a new link to your e-mail address')).toBeInTheDocument();
    expect(callsTo('POST', '/api/user/verify-email')).toHaveLength(1);
  });

  it('goes when the address turns out to be confirmed already (in another browser)', async () => {
    mockApi({
      'POST /api/user/verify-email': () => json(200, { message: 'Your e-mail address is already confirmed' }),
      'GET /api/auth/user': () => json(200, { data: sampleUser({ emailVerified: true }) }),
    });
    renderRoutes(accountRoutes, '/account/settings', sampleUser({ emailVerified: false }));
    const banner = await screen.findByRole('region', { name: 'Confirm your e-mail address' });
    await userEvent.click(within(banner).getByRole('button', { name: 'Send again' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Confirm your e-mail address' })).not.toBeInTheDocument());
  });

  it('says how long to wait when asked too often', async () => {
    mockApi({ 'POST /api/user/verify-email': () => json(429, { message: 'Too many requests' }, { 'Retry-After': '30' }) });
    renderRoutes(accountRoutes, '/account/settings', sampleUser({ emailVerified: false }));
    const banner = within(await screen.findByRole('region', { name: 'Confirm your e-mail address' }));
    await userEvent.click(banner.getByRole('button', { name: 'Send again' }));
    expect(await banner.findByText('Too many requests. You can ask again in 30 seconds.')).toBeInTheDocument();
  });

  it('comes back as soon as the customer changes the address in the profile', async () => {
    const changed = sampleUser({ email: 'grace@navy.example' });
    mockApi({
      'PATCH /api/user/profile': () => json(200, { message: 'Profile updated successfully', data: changed }),
      'GET /api/auth/user': () => json(200, { data: { ...changed, emailVerified: false } }),
    });
    renderRoutes(accountRoutes, '/account/update-account', sampleUser({ emailVerified: true }));
    const email = await screen.findByLabelText('E-mail');
    expect(screen.queryByRole('region', { name: 'Confirm your e-mail address' })).not.toBeInTheDocument();
    await userEvent.clear(email);
    await userEvent.type(email, 'grace@navy.example');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    const banner = within(await screen.findByRole('region', { name: 'Confirm your e-mail address' }));
    expect(banner.getByText('grace@navy.example')).toBeInTheDocument();
  });

  it.each([true, undefined])('is not shown when emailVerified is %s', async (emailVerified) => {
    mockApi({});
    renderRoutes(accountRoutes, '/account/settings', sampleUser({ emailVerified }));
    await screen.findByRole('heading', { name: 'Settings' });
    expect(screen.queryByRole('region', { name: 'Confirm your e-mail address' })).not.toBeInTheDocument();
  });
});
