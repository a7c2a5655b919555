import http from 'node:http';

/** Sockets kept open for the load, one per request in flight (Node's keep-alive agent). */
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/**
 * POST a JSON body and read the JSON answer with node:http on a keep-alive agent. The load phases send every transfer
 * through this instead of `fetch`: the load generator shares the two cores with the bank, and `fetch` (undici's
 * WHATWG layer: Request, Headers and streams objects per call) spent about as much CPU per transfer as the bank's
 * PostgreSQL backends did. What the bank receives is the same request.
 */
export function postJson(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: unknown }> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': String(payload.length) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON: kept as text
          }
          resolve({ status: response.statusCode ?? 0, body: parsed });
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}
