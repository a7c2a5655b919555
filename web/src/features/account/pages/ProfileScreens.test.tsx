import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi, renderRoutes, sampleUser } from '../../../lib/api/queries/testing/testApi';
import { accountRoutes } from '../routes';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(document, 'execCommand');
  localStorage.clear();
});

describe('/account/info', () => {
  it("copies the account number: a browser alert 'Account number copied to clipboard', also shown in the page", async () => {
    mockApi({});
    const type = userEvent.setup();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    renderRoutes(accountRoutes, '/account/info');
    await type.click(await screen.findByRole('button', { name: 'Copy account number' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Account number copied to clipboard'));
    expect(alert).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('status')).toHaveTextContent('Account number copied to clipboard');
    expect(await navigator.clipboard.readText()).toBe('1234567890');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Settings' }).some((link) => link.getAttribute('href') === '/account/settings')).toBe(true);
  });

  it('falls back to a hidden text box and execCommand when the Clipboard API refuses', async () => {
    mockApi({});
    const type = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('Denied', 'NotAllowedError'));
    let copied = '';
    const execCommand = vi.fn((command: string) => {
      copied = command === 'copy' ? (document.activeElement as HTMLTextAreaElement).value : '';
      return true;
    });
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true, writable: true });
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    renderRoutes(accountRoutes, '/account/info');
    await type.click(await screen.findByRole('button', { name: 'Copy account number' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Account number copied to clipboard'));
    expect(execCommand).toHaveBeenCalledWith('copy');
    expect(copied).toBe('1234567890');
    expect(document.querySelector('textarea')).toBeNull();
    expect(await screen.findByRole('status')).toHaveTextContent('Account number copied to clipboard');
  });

  it('shows the number in the page, and no alert, when copying fails both ways', async () => {
    mockApi({});
    const type = userEvent.setup();
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    Object.defineProperty(document, 'execCommand', { value: vi.fn(() => false), configurable: true, writable: true });
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    renderRoutes(accountRoutes, '/account/info');
    await type.click(await screen.findByRole('button', { name: 'Copy account number' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/did not let us copy it\. Your account number is 1234567890/);
    expect(alert).not.toHaveBeenCalled();
  });
});

describe('/account/info: the routing number', () => {
  it("shows the routing number GET /bank answers (the server's BANK_ROUTING_NUMBER)", async () => {
    mockApi({ 'GET /api/bank': () => json(200, { data: { name: 'Summit Bank', routingNumber: '021000021', address: 'a', phone: 'p', email: 'e' } }) });
    renderRoutes(accountRoutes, '/account/info');
    expect(await screen.findByTestId('routing-number')).toHaveTextContent('021000021');
  });

  it('offers a retry when the bank details cannot be loaded', async () => {
    let fail = true;
    mockApi({ 'GET /api/bank': () => (fail ? json(503, { message: 'Unavailable' }) : json(200, { data: { name: 'Summit Bank', routingNumber: '102000021', address: 'a', phone: 'p', email: 'e' } })) });
    const type = userEvent.setup();
    renderRoutes(accountRoutes, '/account/info');
    expect(await screen.findByText('Could not load the routing number.', {}, { timeout: 5000 })).toBeInTheDocument();
    fail = false;
    await type.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('routing-number')).toHaveTextContent('102000021');
  });
});

describe('/account/update-account', () => {
  it('keeps the names read-only, sends the change, stores the new user and goes to /account/info with the message', async () => {
    const updated = sampleUser({ phone: '+1 555 0199', email: 'grace@navy.example' });
    const { callsTo } = mockApi({
      'PATCH /api/user/profile': () => json(200, { message: 'Profile updated successfully', data: updated }),
      'GET /api/auth/user': () => json(200, { data: updated }),
    });
    const type = userEvent.setup();
    const { router } = renderRoutes(accountRoutes, '/account/update-account');
    expect(await screen.findByLabelText('First name')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Last name')).toHaveAttribute('readonly');
    await type.clear(screen.getByLabelText('E-mail'));
    await type.type(screen.getByLabelText('E-mail'), 'grace@navy.example');
    await type.clear(screen.getByLabelText('Phone number'));
    await type.type(screen.getByLabelText('Phone number'), '+1 555 0199');
    await type.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/info'));
    expect(callsTo('PATCH', '/api/user/profile')[0]?.body).toEqual({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@navy.example',
      phoneNumber: '+1 555 0199',
      address: '1 Navy Way',
      state: 'VA',
    });
    expect(await screen.findByRole('status')).toHaveTextContent('Profile updated successfully');
    expect(screen.getByText('grace@navy.example')).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ phone: '+1 555 0199' });
  });

  it("shows the server's refusal", async () => {
    mockApi({ 'PATCH /api/user/profile': () => json(409, { message: 'This e-mail is already registered' }) });
    renderRoutes(accountRoutes, '/account/update-account');
    await userEvent.click(await screen.findByRole('button', { name: 'Save changes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This e-mail is already registered');
  });
});

describe('/account/update-password', () => {
  it("alerts 'Passwords do not match' (also shown in the form) without calling the server", async () => {
    const { calls } = mockApi({});
    const type = userEvent.setup();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    renderRoutes(accountRoutes, '/account/update-password');
    await type.type(await screen.findByLabelText('Current password'), 'old-secret');
    await type.type(screen.getByLabelText('New password'), 'new-secret');
    await type.type(screen.getByLabelText('Confirm password'), 'new-secreT');
    await type.click(screen.getByRole('button', { name: 'Update password' }));
    expect(alert).toHaveBeenCalledTimes(1);
    expect(alert).toHaveBeenCalledWith('Passwords do not match');
    expect(await screen.findByRole('alert')).toHaveTextContent('Passwords do not match');
    // Nothing sent to change the password (the portal's frame only asks for new-sign-in notices).
    expect(calls.filter((call) => call.url.pathname !== '/api/auth/sign-in-notices')).toHaveLength(0);
  });

  it('has exactly one field labelled "New password"', async () => {
    mockApi({});
    renderRoutes(accountRoutes, '/account/update-password');
    await screen.findByLabelText('Current password');
    expect(screen.getAllByLabelText(/New password/)).toHaveLength(1);
    expect(screen.getByLabelText('Confirm password')).toHaveAttribute('type', 'password');
  });

  it("shows the server's message after success and after failure, and clears the fields", async () => {
    let ok = false;
    const { callsTo } = mockApi({
      'POST /api/auth/change-password': () => (ok ? json(200, { message: 'Password changed successfully' }) : json(422, { message: 'Old password is incorrect' })),
    });
    const type = userEvent.setup();
    renderRoutes(accountRoutes, '/account/update-password');
    const fill = async () => {
      await type.type(screen.getByLabelText('Current password'), 'old-secret');
      await type.type(screen.getByLabelText('New password'), 'new-secret');
      await type.type(screen.getByLabelText('Confirm password'), 'new-secret');
      await type.click(screen.getByRole('button', { name: 'Update password' }));
    };
    await screen.findByLabelText('Current password');
    await fill();
    expect(await screen.findByRole('alert')).toHaveTextContent('Old password is incorrect');
    expect(screen.getByLabelText('Current password')).toHaveValue('');
    ok = true;
    await fill();
    expect(await screen.findByRole('status')).toHaveTextContent('Password changed successfully');
    expect(screen.getByLabelText('New password')).toHaveValue('');
    expect(callsTo('POST', '/api/auth/change-password')[0]?.body).toEqual({ oldPassword: 'old-secret', newPassword: 'new-secret' });
  });
});

describe('/account/beneficiaries', () => {
  it("shows only 'You have no beneficiaries yet.', without asking the server", async () => {
    const api = mockApi({ 'GET /api/beneficiaries': () => json(200, { data: [{ _id: 'b1', name: 'City Power', accountNumber: '5550001111' }] }) });
    renderRoutes(accountRoutes, '/account/beneficiaries');
    expect(await screen.findByText('You have no beneficiaries yet.')).toBeInTheDocument();
    expect(screen.queryByText('City Power')).not.toBeInTheDocument();
    expect(api.callsTo('GET', '/api/beneficiaries')).toHaveLength(0);
  });
});

describe('/account/profile', () => {
  it('summarises the profile with links to the other screens', async () => {
    mockApi({});
    renderRoutes(accountRoutes, '/account/profile');
    expect(await screen.findByRole('heading', { name: 'Grace Hopper' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit profile' })).toHaveAttribute('href', '/account/update-account');
    expect(screen.getByRole('link', { name: 'Update password' })).toHaveAttribute('href', '/account/update-password');
  });
});
