import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failOnConsoleError } from '../../../components/testing/failOnConsoleError';
import { jsonResponse, sentBody } from '../../../components/testing/jsonResponse';
import { renderWithRouter } from '../../../components/testing/renderWithRouter';
import { sampleUser } from '../../../components/testing/sampleUser';
import { storeSession } from '../../../lib/session/sessionStorage';
import { ResetPasswordPage } from './ResetPasswordPage';

const PATH = '/reset-password?token=tok-123';

async function choose(password: string, confirm = password) {
  await userEvent.type(screen.getByLabelText('New password'), password);
  await userEvent.type(screen.getByLabelText('Confirm new password'), confirm);
  await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
}

describe('ResetPasswordPage', () => {
  failOnConsoleError();
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    localStorage.clear();
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the sign-up rules and checks them before sending', async () => {
    renderWithRouter(<ResetPasswordPage />, { path: PATH });
    expect(screen.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeInTheDocument();
    expect(screen.getByText(/At least 6 characters, at most 72 bytes/)).toBeInTheDocument();
    await choose('short');
    expect(screen.getByText('New password must be at least 6 characters')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('New password'));
    await userEvent.clear(screen.getByLabelText('Confirm new password'));
    await choose('long-enough', 'long-enougH');
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('resets with the token, without the stored session, and leads to sign-in', async () => {
    storeSession('someone-signed-in', sampleUser());
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { message: 'Password reset successfully' }));
    renderWithRouter(<ResetPasswordPage />, { path: PATH });
    await choose('new-secret-1');
    await waitFor(async () => expect(await screen.findByRole('heading', { name: 'Your password has been changed' })).toHaveFocus());
    expect(screen.getByRole('status')).toHaveTextContent('Password reset successfully');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/signin');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/auth/reset-password');
    expect(sentBody(fetchMock)).toEqual({ token: 'tok-123', newPassword: 'new-secret-1' });
    expect((init?.headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it('asks for a code when the server says the account has a second factor, then sends it', async () => {
    storeSession('someone-signed-in', sampleUser());
    fetchMock.mockResolvedValueOnce(jsonResponse(401, { message: 'Invalid code' }));
    renderWithRouter(<ResetPasswordPage />, { path: PATH });
    await choose('new-secret-1');
    expect(await screen.findByRole('alert')).toHaveTextContent('Your account uses two-step sign-in');
    // The 401 of a public call does not sign out whoever is signed in here.
    expect(localStorage.getItem('token')).toBe('someone-signed-in');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(screen.getByLabelText('New password')).toHaveValue('new-secret-1');

    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(screen.getByText('Enter the 6-digit code from your authenticator app')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);

    fetchMock.mockResolvedValueOnce(jsonResponse(401, { message: 'Invalid code' }));
    await userEvent.type(screen.getByLabelText('Authentication code'), '123 456');
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('That code is not valid. Try the newest code from your app.')).toBeInTheDocument();
    expect(sentBody(fetchMock)).toEqual({ token: 'tok-123', newPassword: 'new-secret-1', code: '123456' });
    expect(screen.getByLabelText('Authentication code')).toHaveValue('');

    fetchMock.mockResolvedValueOnce(jsonResponse(200, { message: 'Password reset successfully' }));
    await userEvent.type(screen.getByLabelText('Authentication code'), '654321');
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByRole('heading', { name: 'Your password has been changed' })).toBeInTheDocument();
    expect(sentBody(fetchMock)).toEqual({ token: 'tok-123', newPassword: 'new-secret-1', code: '654321' });
  });

  it('takes a recovery code instead of a code', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(401, { message: 'Invalid code' }));
    renderWithRouter(<ResetPasswordPage />, { path: PATH });
    await choose('new-secret-1');
    await screen.findByRole('alert');
    await userEvent.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { message: 'Password reset successfully' }));
    await userEvent.type(screen.getByLabelText('Recovery code'), ' ABCD-EFGH ');
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    await screen.findByRole('heading', { name: 'Your password has been changed' });
    expect(sentBody(fetchMock)).toEqual({ token: 'tok-123', newPassword: 'new-secret-1', recoveryCode: 'ABCD-EFGH' });
  });

  it('shows an expired or used link clearly and offers a new one', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(400, { message: 'Invalid or expired link' }));
    renderWithRouter(<ResetPasswordPage />, { path: PATH });
    await choose('new-secret-1');
    await waitFor(async () => expect(await screen.findByRole('heading', { name: 'This link cannot be used' })).toHaveFocus());
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid or expired link');
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it('shows another refusal of the server (a weak password) on the form', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(400, { message: 'New password must be at least 12 characters' }));
    renderWithRouter(<ResetPasswordPage />, { path: PATH });
    await choose('staff-pass');
    expect(await screen.findByRole('alert')).toHaveTextContent('New password must be at least 12 characters');
    expect(screen.getByLabelText('New password')).toBeInTheDocument();
  });

  it('says the link is unusable when it has no token, and sends nothing', () => {
    renderWithRouter(<ResetPasswordPage />, { path: '/reset-password' });
    expect(screen.getByRole('heading', { name: 'This link cannot be used' })).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
