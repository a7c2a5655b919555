import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, getLastEventPosition, setUnauthorizedHandler } from './apiClient';
import { ApiError } from './apiError';

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

describe('apiClient', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    localStorage.clear();
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends the stored token as a bearer token to the /api base path', async () => {
    localStorage.setItem('token', 'abc');
    fetchMock.mockResolvedValueOnce(answer(200, { data: 1 }));
    await api.get('/user/me');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/user/me');
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer abc');
    expect(init?.credentials).toBe('include');
  });

  it("rejects with the server's message", async () => {
    fetchMock.mockResolvedValueOnce(answer(422, { message: 'You do not have enough balance' }));
    await expect(api.post('/transaction/transfer', {})).rejects.toEqual(new ApiError(422, 'You do not have enough balance'));
  });

  it('clears the session and calls the unauthorized handler on a 401 with a token', async () => {
    localStorage.setItem('token', 'abc');
    localStorage.setItem('user', '{}');
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    fetchMock.mockResolvedValueOnce(answer(401, { message: 'Unauthorized' }));
    await expect(api.get('/user/me')).rejects.toBeInstanceOf(ApiError);
    expect(handler).toHaveBeenCalledOnce();
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('does not redirect on a 401 from a call made without a token (wrong password at sign-in)', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    fetchMock.mockResolvedValueOnce(answer(401, { message: 'Invalid email or password' }));
    await expect(api.post('/auth/signin', {})).rejects.toThrow('Invalid email or password');
    expect(handler).not.toHaveBeenCalled();
  });

  it('sends no session with an anonymous call, and its 401 signs nobody out (a wrong code when resetting a password)', async () => {
    localStorage.setItem('token', 'abc');
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    fetchMock.mockResolvedValueOnce(answer(401, { message: 'Invalid code' }));
    await expect(api.post('/auth/reset-password', { token: 't' }, { anonymous: true })).rejects.toEqual(new ApiError(401, 'Invalid code'));
    expect((fetchMock.mock.calls[0]![1]?.headers as Record<string, string>).Authorization).toBeUndefined();
    expect(handler).not.toHaveBeenCalled();
    expect(localStorage.getItem('token')).toBe('abc');
  });

  it('sends the last command position with the next query so it reads its own write', async () => {
    fetchMock.mockResolvedValueOnce(answer(201, { data: {} }, { 'X-Event-Position': '00000000000000000042:00000000000000000007' }));
    await api.post('/contacts', { name: 'a' });
    expect(getLastEventPosition()).toBe('00000000000000000042:00000000000000000007');
    fetchMock.mockResolvedValueOnce(answer(200, { data: [] }));
    await api.get('/transaction');
    const init = fetchMock.mock.calls[1]![1];
    expect((init?.headers as Record<string, string>)['X-Consistent-Position']).toBe('00000000000000000042:00000000000000000007');
  });
});
