import type { Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { deviceName } from './deviceName';

/** Where a sign-in comes from, as a session records it. */
export interface ClientInfo {
  readonly device: string;
  readonly userAgent: string;
  readonly address: string;
}

/** The request's client: its address (req.ip, which honours Express's trust proxy setting) and its user agent. */
export function clientInfo(req: Request): ClientInfo {
  const userAgent = (req.get('User-Agent') ?? '').slice(0, 500);
  return { device: deviceName(userAgent), userAgent, address: clientAddress(req) };
}

export function clientAddress(req: Request): string {
  const address = req.ip ?? req.socket.remoteAddress ?? '';
  // IPv4 clients of a dual-stack server appear as ::ffff:a.b.c.d.
  return address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
}

/**
 * The client's key in the per-address failure limits: an IPv4 address whole, an IPv6 one by its /56 prefix (a single
 * subscriber's allocation: one client rotating through its own addresses is still one client), as the routes' own
 * rate limits (express-rate-limit) group them.
 */
export function limitAddressOf(req: Request): string {
  return ipKeyGenerator(clientAddress(req));
}
