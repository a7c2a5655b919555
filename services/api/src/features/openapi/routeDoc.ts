import type { Role } from '@bank/domain';
import type { z } from 'zod';
import type { ShapeName } from './apiShapes';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What a successful answer carries. */
export interface SuccessDoc {
  readonly status: number;
  readonly description: string;
  /** `data` of the envelope: one shape, or a list of it; a paged list also answers `next` (http/keysetPage). */
  readonly data?: { readonly shape: ShapeName; readonly list?: boolean; readonly paged?: boolean };
  /** The envelope has a `message`. */
  readonly message?: boolean;
  /** Sign-in's answer: {message, token, user}, or (true) a second-factor challenge instead. */
  readonly signIn?: true | 'secondFactor';
  /** The whole body is this shape (no envelope). */
  readonly body?: ShapeName;
  /** Something other than JSON (metrics text, image bytes). */
  readonly contentType?: string;
}

export interface RouteDoc {
  readonly method: HttpMethod;
  /** Express style, relative to /api: `/user/admin/:id`. */
  readonly path: string;
  readonly summary: string;
  /** 'public' or the roles allowed (anyone else signed in: 403). */
  readonly access: 'public' | readonly Role[];
  readonly body?: z.ZodType;
  readonly query?: Readonly<Record<string, string>>;
  readonly success: SuccessDoc;
  /** Error statuses besides the generic ones (401/403 follow from access; 500 always). */
  readonly errors?: readonly number[];
  /** A command: answers X-Event-Position and honours Idempotency-Key. */
  readonly command?: boolean;
  /** Which feature serves it. */
  readonly feature?: 'transactions';
}
