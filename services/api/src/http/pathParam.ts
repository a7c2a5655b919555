import type { Request } from 'express';

/** A named path parameter as one string ('' when absent). */
export function pathParam(req: Request, name: string): string {
  const value: unknown = (req.params as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}
