import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failOnConsoleError } from '../../../components/testing/failOnConsoleError';
import { jsonResponse, sentBody } from '../../../components/testing/jsonResponse';
import { currentPath, renderWithRouter } from '../../../components/testing/renderWithRouter';
import { sampleUser } from '../../../components/testing/sampleUser';
import { SignUpPage } from './SignUpPage';

const person = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '+1 303 555 0101',
  password: 'secret-pass',
  address: '12 Market Street',
  state: 'Colorado',
};

describe('SignUpPage', () => {
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

  async function fill(overrides: Partial<typeof person & { repeatPassword: string }> = {}) {
    const values = { ...person, repeatPassword: person.password, ...overrides };
    const user = userEvent.setup(vi.isFakeTimers() ? { advanceTimers: vi.advanceTimersByTime } : {});
    const typeInto = async (label: string, value: string) => {
      if (value) await user.type(screen.getByLabelText(label), value);
    };
    await typeInto('First name', values.firstName);
    await typeInto('Last name', values.lastName);
    await typeInto('Email', values.email);
    await typeInto('Phone', values.phone);
    await typeInto('Password', values.password);
    await typeInto('Repeat password', values.repeatPassword);
    await typeInto('House address', values.address);
    if (values.state) await user.selectOptions(screen.getByLabelText('State'), values.state);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
  }

  it('shows "Create Your Account" with a link to sign in', () => {
    renderWithRouter(<SignUpPage />, { path: '/signup' });
    expect(screen.getByRole('heading', { level: 1, name: 'Create Your Account' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/signin');
  });

  it('requires every field and sends nothing', async () => {
    renderWithRouter(<SignUpPage />, { path: '/signup' });
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    // The form's schema loads on first use; its messages follow.
    expect(await screen.findByText('First name is required')).toBeInTheDocument();
    for (const message of ['First name is required', 'Last name is required', 'Email is required', 'Phone is required', 'Address is required', 'State is required']) {
      expect(screen.getByText(message)).toBeInTheDocument();
    }
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(screen.getByText('Repeat password must be at least 6 characters')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks for at least 6 characters of password', async () => {
    renderWithRouter(<SignUpPage />, { path: '/signup' });
    await fill({ password: 'abc12', repeatPassword: 'abc12' });
    // The validation awaits the form's schema module: its messages come after the click, not with it.
    expect(await screen.findByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("says 'Passwords do not match' and does not submit when the passwords differ", async () => {
    renderWithRouter(<SignUpPage />, { path: '/signup' });
    await fill({ repeatPassword: 'secret-pasS' });
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(screen.getByLabelText('Repeat password')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('reports a mismatch even while other fields are still empty', async () => {
    renderWithRouter(<SignUpPage />, { path: '/signup' });
    await fill({ firstName: '', repeatPassword: 'different' });
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(screen.getByText('First name is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the server's error in a red banner for 3 seconds", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fetchMock.mockResolvedValueOnce(jsonResponse(409, { message: 'This e-mail is already registered' }));
    renderWithRouter(<SignUpPage />, { path: '/signup' });
    await fill();
    expect(await screen.findByRole('alert')).toHaveTextContent('This e-mail is already registered');
    act(() => vi.advanceTimersByTime(2500));
    expect(screen.getByRole('alert')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(600));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Account' })).toBeEnabled();
  });

  it('registers, signs the person in with the same credentials and goes to /account-verification', async () => {
    fetchMock
      .mockResolvedValueOnce(jsonResponse(201, { message: 'Account created', data: sampleUser({ verificationStatus: 'awaiting' }) }))
      .mockResolvedValueOnce(jsonResponse(200, { message: 'Signed in', token: 'jwt-new', user: sampleUser({ verificationStatus: 'awaiting' }) }));
    renderWithRouter(<SignUpPage />, { path: '/signup' });
    await fill();
    expect(await currentPath()).toBe('/account-verification');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/auth/signup');
    expect(sentBody(fetchMock, 0)).toEqual(person);
    expect(fetchMock.mock.calls[1]?.[0]).toBe('/api/auth/signin');
    expect(sentBody(fetchMock, 1)).toEqual({ email: person.email, password: person.password });
    expect(localStorage.getItem('token')).toBe('jwt-new');
  });

  it('goes to /signin when the automatic sign-in fails', async () => {
    fetchMock
      .mockResolvedValueOnce(jsonResponse(201, { message: 'Account created', data: sampleUser() }))
      .mockResolvedValueOnce(jsonResponse(500, { message: 'Internal error' }));
    renderWithRouter(<SignUpPage />, { path: '/signup' });
    await fill();
    expect(await currentPath()).toBe('/signin');
  });
});
