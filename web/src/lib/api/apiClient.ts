import { ApiError, type FieldError } from './apiError';
import { clearSession, readToken } from '../session/sessionStorage';

const BASE_URL = (import.meta.env.VITE_API_URL as string | undefined)?.replace(/\/$/, '') ?? '/api';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  readonly body?: unknown;
  /** A plain-text body (e.g. a NACHA file), sent as is with `Content-Type: text/plain` instead of a JSON `body`. */
  readonly text?: string;
  readonly query?: Record<string, string | number | undefined>;
  readonly idempotencyKey?: string;
  readonly signal?: AbortSignal;
  /**
   * A public call that must not carry the stored session (reset a password, confirm an e-mail address): no bearer
   * token is sent, and a 401 answer (a wrong code) does not sign the visitor out.
   */
  readonly anonymous?: boolean;
}

let lastEventPosition: string | undefined;
let onUnauthorized: () => void = () => {
  window.location.assign('/signin');
};

/** The session provider decides what a 401 on an authenticated call does (clear the session, go to /signin). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

/** The position of the last event our own commands appended; queries wait for it (read-your-writes). */
export function getLastEventPosition(): string | undefined {
  return lastEventPosition;
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  const url = `${BASE_URL}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${url}?${text}` : url;
}

/** One call to the API. Resolves with the parsed JSON body; rejects with an ApiError carrying the server's message. */
export async function apiRequest<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = options.anonymous ? null : readToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.text !== undefined) headers['Content-Type'] = 'text/plain';
  else if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  if (method === 'GET' && lastEventPosition) headers['X-Consistent-Position'] = lastEventPosition;

  const response = await fetch(buildUrl(path, options.query), {
    method,
    headers,
    credentials: 'include',
    body: options.text ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    signal: options.signal,
  });

  const position = response.headers.get('X-Event-Position');
  if (position) lastEventPosition = position;

  const text = await response.text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = { message: text };
    }
  }

  if (!response.ok) {
    const payload = (body ?? {}) as { message?: string; errors?: FieldError[] };
    const retryAfter = Number(response.headers.get('Retry-After'));
    const error = new ApiError(
      response.status,
      payload.message ?? response.statusText ?? 'An error occurred',
      payload.errors ?? [],
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    );
    if (response.status === 401 && token) {
      console.warn('Session expired or revoked; signing out.');
      clearSession();
      onUnauthorized();
    }
    throw error;
  }
  return body as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) => apiRequest<T>('POST', path, { ...options, body }),
  /** POST with a plain-text body (`Content-Type: text/plain`); the answer is read as JSON like any other. */
  postText: <T>(path: string, text: string, options?: Omit<RequestOptions, 'body' | 'text'>) => apiRequest<T>('POST', path, { ...options, text }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) => apiRequest<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) => apiRequest<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => apiRequest<T>('DELETE', path, options),
};
