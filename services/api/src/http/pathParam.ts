import type { Request } from 'express';

/** A named path parameter as one string ('' when absent). */
export function pathParam(req: Request, name: string): string {
  const value: unknown = (req.params as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs: anything else names nothing (404 rather than a database error). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
