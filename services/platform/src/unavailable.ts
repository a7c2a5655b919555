/**
 * Whether an error says a backing service (PostgreSQL, Redis, the event store) cannot be reached or is restarting,
 * rather than that the request was wrong or the code broken: the API answers 503 with Retry-After for those, and
 * logs them once per outage, not as faults.
 *
 * PostgreSQL: class 08 (connection exception; createPool's connect timeout is 08001), 57P01–57P03 (administrator
 * shutdown, crash shutdown, cannot connect now), 53300 (too many connections), 53100 (disk full: the WAL's disk, say),
 * 25006 (a write reached a server that is read-only: during a switchover or failover the endpoint can still lead a
 * new connection to the demoted primary for a moment), and node-postgres' own messages for a dropped or refused
 * connection. Redis (ioredis): a closed connection, a refused one, one destroyed for going silent (`socketTimeout`),
 * and commands given up while reconnecting.
 */
const MESSAGES =
  /Connection terminated|connection (is )?(closed|ended|lost)|Client has encountered a connection error|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|timeout exceeded when trying to connect|Reached the max retries per request limit|Stream isn't writeable|Socket timeout|Connection is closed|the database system is (starting up|shutting down|in recovery)|terminating connection/i;

export function isServiceUnavailable(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    const { code, message, name } = current as { code?: unknown; message?: unknown; name?: unknown };
    if (typeof code === 'string' && (/^08/.test(code) || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300' || code === '53100' || code === '25006')) return true;
    if (typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND)$/.test(code)) return true;
    if (name === 'MaxRetriesPerRequestError') return true;
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
