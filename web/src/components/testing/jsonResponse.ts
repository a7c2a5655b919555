/** A fetch Response with a JSON body, for vi.stubGlobal('fetch', …) mocks. */
export function jsonResponse(status: number, body?: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

/** The JSON body a mocked fetch was called with (call `index`, default the last). */
export function sentBody(fetchMock: { mock: { calls: unknown[][] } }, index = fetchMock.mock.calls.length - 1): unknown {
  const init = fetchMock.mock.calls[index]?.[1] as RequestInit | undefined;
  return typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
}
