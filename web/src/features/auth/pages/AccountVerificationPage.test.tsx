import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failOnConsoleError } from '../../../components/testing/failOnConsoleError';
import { jsonResponse, sentBody } from '../../../components/testing/jsonResponse';
import { currentPath, renderWithRouter } from '../../../components/testing/renderWithRouter';
import { sampleUser, seedSession } from '../../../components/testing/sampleUser';
import { AccountVerificationPage } from './AccountVerificationPage';

const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function image(name: string, bytes: Uint8Array<ArrayBuffer> = PNG_BYTES): File {
  return new File([bytes], name, { type: 'image/png' });
}

function dataUrlOf(bytes: Uint8Array = PNG_BYTES): string {
  return `data:image/png;base64,${btoa(String.fromCharCode(...bytes))}`;
}

describe('AccountVerificationPage', () => {
  failOnConsoleError();
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    localStorage.clear();
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  function renderSignedIn() {
    seedSession(sampleUser({ verificationStatus: 'awaiting' }));
    return renderWithRouter(<AccountVerificationPage />, { path: '/account-verification' });
  }

  it('sends a visitor without a session to /signin', async () => {
    renderWithRouter(<AccountVerificationPage />, { path: '/account-verification' });
    expect(await currentPath()).toBe('/signin');
    expect(JSON.parse(screen.getByTestId('location').dataset.state ?? 'null')).toEqual({ from: '/account-verification' });
  });

  it('shows "Complete Your Account Setup" with every field', () => {
    renderSignedIn();
    expect(screen.getByRole('heading', { level: 1, name: 'Complete Your Account Setup' })).toBeInTheDocument();
    expect(screen.getByLabelText('Passport photo')).toHaveAttribute('type', 'file');
    expect(screen.getByLabelText('Document front')).toHaveAttribute('type', 'file');
    expect(screen.getByLabelText('Document back')).toHaveAttribute('type', 'file');
    expect(screen.getByLabelText('Date of birth')).toHaveAttribute('type', 'date');
    const select = screen.getByLabelText('Document type');
    expect([...select.querySelectorAll('option')].map((option) => option.value)).toEqual(['passport', 'national-id', 'driver-license', 'other']);
  });

  it("says 'No file selected' when a file input is emptied", () => {
    renderSignedIn();
    fireEvent.change(screen.getByLabelText('Passport photo'), { target: { files: [] } });
    expect(screen.getByText('No file selected')).toBeInTheDocument();
  });

  it("says 'File size must be less than 10MB' for a file over 10 × 1024 × 1024 bytes and keeps it out", async () => {
    renderSignedIn();
    const big = image('huge.png', new Uint8Array(10 * 1024 * 1024 + 1));
    await userEvent.upload(screen.getByLabelText('Document front'), big);
    expect(screen.getByText('File size must be less than 10MB')).toBeInTheDocument();
    expect(screen.queryByAltText('Preview of document front')).not.toBeInTheDocument();
  });

  it('accepts a file of exactly 10MB and shows its preview', async () => {
    renderSignedIn();
    await userEvent.upload(screen.getByLabelText('Passport photo'), image('me.png', new Uint8Array(10 * 1024 * 1024)));
    expect(await screen.findByAltText('Preview of passport photo')).toHaveAttribute('src', expect.stringMatching(/^data:image\/png;base64,/));
    expect(screen.queryByText('File size must be less than 10MB')).not.toBeInTheDocument();
  });

  it("says 'All fields are required' when the passport photo, the document front or the date of birth is missing", async () => {
    renderSignedIn();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Submit for Verification' }));
    expect(screen.getByRole('alert')).toHaveTextContent('All fields are required');

    await user.upload(screen.getByLabelText('Passport photo'), image('me.png'));
    await screen.findByAltText('Preview of passport photo');
    await user.upload(screen.getByLabelText('Document front'), image('front.png'));
    await screen.findByAltText('Preview of document front');
    await user.click(screen.getByRole('button', { name: 'Submit for Verification' }));
    expect(screen.getByRole('alert')).toHaveTextContent('All fields are required');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows a text box for 'other' whose value is not sent, falls back to the front for the back, then reloads the user and goes home", async () => {
    fetchMock
      .mockResolvedValueOnce(jsonResponse(200, { message: 'Verification submitted' }))
      .mockResolvedValueOnce(jsonResponse(200, { data: sampleUser({ verificationStatus: 'pending' }) }));
    renderSignedIn();
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('Passport photo'), image('me.png'));
    await screen.findByAltText('Preview of passport photo');
    await user.upload(screen.getByLabelText('Document front'), image('front.png'));
    await screen.findByAltText('Preview of document front');
    await user.selectOptions(screen.getByLabelText('Document type'), 'other');
    await user.type(screen.getByLabelText('Which document?'), 'Residence permit');
    fireEvent.change(screen.getByLabelText('Date of birth'), { target: { value: '1990-04-12' } });
    await user.click(screen.getByRole('button', { name: 'Submit for Verification' }));

    expect(await currentPath()).toBe('/account/home');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/user/verification');
    const body = sentBody(fetchMock, 0);
    expect(body).toEqual({ passport: dataUrlOf(), documentFront: dataUrlOf(), documentBack: dataUrlOf(), documentType: 'other', dateOfBirth: '1990-04-12' });
    expect(JSON.stringify(body)).not.toContain('Residence permit');
    expect(fetchMock.mock.calls[1]?.[0]).toBe('/api/auth/user');
    expect(JSON.parse(localStorage.getItem('user') ?? 'null').verificationStatus).toBe('pending');
  });

  it('sends the chosen back image and document type', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { message: 'ok' })).mockResolvedValueOnce(jsonResponse(200, { data: sampleUser() }));
    renderSignedIn();
    const user = userEvent.setup();
    const back = new Uint8Array([1, 2, 3, 4]);
    await user.upload(screen.getByLabelText('Passport photo'), image('me.png'));
    await user.upload(screen.getByLabelText('Document front'), image('front.png'));
    await user.upload(screen.getByLabelText('Document back'), image('back.png', back));
    await screen.findByAltText('Preview of document back');
    await user.selectOptions(screen.getByLabelText('Document type'), 'driver-license');
    fireEvent.change(screen.getByLabelText('Date of birth'), { target: { value: '1985-01-31' } });
    await user.click(screen.getByRole('button', { name: 'Submit for Verification' }));
    await currentPath();
    expect(sentBody(fetchMock, 0)).toMatchObject({ documentBack: dataUrlOf(back), documentType: 'driver-license', dateOfBirth: '1985-01-31' });
  });

  it("shows the server's message when the upload is refused, and stays on the page", async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(422, { message: 'You must be at least 18 years old' }));
    renderSignedIn();
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('Passport photo'), image('me.png'));
    await user.upload(screen.getByLabelText('Document front'), image('front.png'));
    await screen.findByAltText('Preview of document front');
    fireEvent.change(screen.getByLabelText('Date of birth'), { target: { value: '2015-01-01' } });
    await user.click(screen.getByRole('button', { name: 'Submit for Verification' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You must be at least 18 years old');
    expect(screen.getByRole('heading', { level: 1, name: 'Complete Your Account Setup' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit for Verification' })).toBeEnabled();
  });
});
