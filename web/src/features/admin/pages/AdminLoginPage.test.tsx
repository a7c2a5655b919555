import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi, renderRoutes, sampleAdmin, sampleUser } from '../../../lib/api/queries/testing/testApi';
import { adminRoutes } from '../routes';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
});

async function signIn(email: string, type = userEvent.setup()) {
  await type.type(await screen.findByLabelText('E-mail'), email);
  await type.type(screen.getByLabelText('Password'), 'secret123');
  await type.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('/admin/login', () => {
  it('has the Admin Login heading, a back-to-home link and the password reset staff use too', async () => {
    mockApi({});
    renderRoutes(adminRoutes, '/admin/login', null);
    expect(await screen.findByRole('heading', { name: 'Admin Login' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← Back to home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
  });

  it('sends an admin to /admin/dashboard', async () => {
    const { callsTo } = mockApi({ 'POST /api/auth/signin': () => json(200, { message: 'Signed in', token: 'jwt', user: sampleAdmin() }) });
    const { router } = renderRoutes(adminRoutes, '/admin/login', null);
    await signIn('admin@bank.test');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/dashboard');
    expect(callsTo('POST', '/api/auth/signin')[0]?.body).toEqual({ email: 'admin@bank.test', password: 'secret123' });
    expect(localStorage.getItem('token')).toBe('jwt');
  });

  it('sends a visitor without a session from an admin page to /signin', async () => {
    mockApi({});
    const { router } = renderRoutes(adminRoutes, '/admin/contacts', null);
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
  });

  it('sends a signed-in customer to /admin/login, then back to the admin page once they sign in as an admin', async () => {
    mockApi({
      'POST /api/auth/signin': () => json(200, { message: 'Signed in', token: 'jwt', user: sampleAdmin() }),
      'GET /api/contacts': () => json(200, { data: [] }),
    });
    const { router } = renderRoutes(adminRoutes, '/admin/contacts', sampleUser());
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    await signIn('admin@bank.test');
    expect(await screen.findByRole('heading', { name: 'Contacts' })).toBeInTheDocument();
  });

  it('sends anyone else to /account/home', async () => {
    mockApi({ 'POST /api/auth/signin': () => json(200, { message: 'Signed in', token: 'jwt', user: sampleUser() }) });
    const { router } = renderRoutes(adminRoutes, '/admin/login', null);
    await signIn('grace@example.com');
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/home'));
  });

  it("shows the server's error in a banner for 3 seconds", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockApi({ 'POST /api/auth/signin': () => json(401, { message: 'Invalid email or password' }) });
    renderRoutes(adminRoutes, '/admin/login', null);
    await signIn('admin@bank.test', userEvent.setup({ advanceTimers: vi.advanceTimersByTime }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    act(() => {
      vi.advanceTimersByTime(3100);
    });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
