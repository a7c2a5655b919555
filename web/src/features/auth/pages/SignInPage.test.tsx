import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failOnConsoleError } from '../../../components/testing/failOnConsoleError';
import { jsonResponse, sentBody } from '../../../components/testing/jsonResponse';
import { currentPath, renderWithRouter } from '../../../components/testing/renderWithRouter';
import { sampleUser } from '../../../components/testing/sampleUser';
import { SignInPage } from './SignInPage';

describe('SignInPage', () => {
  failOnConsoleError();
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    localStorage.clear();
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  async function signIn(email = 'ada@example.com', password = 'secret-pass') {
    const user = userEvent.setup(vi.isFakeTimers() ? { advanceTimers: vi.advanceTimersByTime } : {});
    await user.type(screen.getByLabelText('Email'), email);
    await user.type(screen.getByLabelText('Password'), password);
    await user.click(screen.getByRole('button', { name: 'Login' }));
  }

  it('shows "Login to Your Account" with links to /forgot-password and /signup', () => {
    renderWithRouter(<SignInPage />, { path: '/signin' });
    expect(screen.getByRole('heading', { level: 1, name: 'Login to Your Account' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/signup');
  });

  it('requires e-mail and password and sends nothing without them', async () => {
    renderWithRouter(<SignInPage />, { path: '/signin' });
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    // The form's schema loads on first use; its messages follow.
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the server's error in a red banner that disappears after 3 seconds", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fetchMock.mockResolvedValueOnce(jsonResponse(401, { message: 'Invalid email or password' }));
    renderWithRouter(<SignInPage />, { path: '/signin' });
    await signIn('ada@example.com', 'wrong-password');

    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Invalid email or password');
    expect(banner).toHaveClass('alert-error');
    expect(sentBody(fetchMock)).toEqual({ email: 'ada@example.com', password: 'wrong-password' });

    act(() => vi.advanceTimersByTime(2500));
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid email or password');
    act(() => vi.advanceTimersByTime(600));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled();
  });

  it('sends a customer awaiting verification to /account-verification and stores the session', async () => {
    const user = sampleUser({ verificationStatus: 'awaiting' });
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { message: 'Signed in', token: 'jwt-1', user }));
    renderWithRouter(<SignInPage />, { path: '/signin' });
    await signIn();
    expect(await currentPath()).toBe('/account-verification');
    expect(localStorage.getItem('token')).toBe('jwt-1');
    expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toEqual(user);
  });

  it.each(['pending', 'verified', 'failed'] as const)('sends a %s customer to /account/home', async (status) => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { message: 'Signed in', token: 'jwt', user: sampleUser({ verificationStatus: status }) }));
    renderWithRouter(<SignInPage />, { path: '/signin' });
    await signIn();
    expect(await currentPath()).toBe('/account/home');
  });

  it('sends a customer to /account/home even when a guard sent them from another page (the spec)', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { message: 'Signed in', token: 'jwt', user: sampleUser() }));
    renderWithRouter(<SignInPage />, { path: '/signin', state: { from: { pathname: '/account/transfer', search: '?from=savings', hash: '' } } });
    await signIn();
    expect(await currentPath()).toBe('/account/home');
  });

  it('still sends an awaiting customer to verification when a guard sent them', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { message: 'Signed in', token: 'jwt', user: sampleUser({ verificationStatus: 'awaiting' }) }));
    renderWithRouter(<SignInPage />, { path: '/signin', state: { from: '/account/transactions' } });
    await signIn();
    expect(await currentPath()).toBe('/account-verification');
  });

  it('asks a customer with a second factor for a code, then signs in with it', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { message: 'Second factor required', secondFactor: 'totp', challenge: 'ch-1' }));
    renderWithRouter(<SignInPage />, { path: '/signin' });
    await signIn();
    await waitFor(async () => expect(await screen.findByRole('heading', { name: 'Enter your authentication code' })).toHaveFocus());
    expect(localStorage.getItem('token')).toBeNull();
    const code = screen.getByLabelText('Authentication code');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    fetchMock.mockResolvedValueOnce(jsonResponse(401, { message: 'Invalid code' }));
    await userEvent.type(code, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That code is not valid');
    expect(sentBody(fetchMock)).toEqual({ challenge: 'ch-1', code: '123456' });
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { message: 'Signed in successfully', token: 'jwt-2', user: sampleUser() }));
    await userEvent.type(screen.getByLabelText('Authentication code'), '654 321');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await currentPath()).toBe('/account/home');
    expect(sentBody(fetchMock)).toEqual({ challenge: 'ch-1', code: '654321' });
    expect(localStorage.getItem('token')).toBe('jwt-2');
  });

  it('signs in with a recovery code and says how many are left before going on', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { message: 'Second factor required', secondFactor: 'totp', challenge: 'ch-2' }));
    renderWithRouter(<SignInPage />, { path: '/signin' });
    await signIn();
    await userEvent.click(await screen.findByRole('button', { name: 'Use a recovery code instead' }));
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { message: 'Signed in successfully', token: 'jwt-3', user: sampleUser(), recoveryCodesLeft: 9 }));
    await userEvent.type(screen.getByLabelText('Recovery code'), 'abcd-efgh-ijkl-mnop');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('You have 9 recovery codes left.')).toBeInTheDocument();
    expect(sentBody(fetchMock)).toEqual({ challenge: 'ch-2', recoveryCode: 'abcd-efgh-ijkl-mnop' });
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await currentPath()).toBe('/account/home');
  });
});
