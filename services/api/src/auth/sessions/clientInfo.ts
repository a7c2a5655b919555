import type { Request } from 'express';
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
