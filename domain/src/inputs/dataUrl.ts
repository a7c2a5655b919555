/**
 * Data URLs of images (`data:image/png;base64,...`), as the web app sends files.
 * Parsing is pure and browser-safe: the decoded size is computed from the base64 length, nothing is decoded.
 */
export const imageMimeTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageMimeType = (typeof imageMimeTypes)[number];

export interface ImageDataUrl {
  readonly mimeType: ImageMimeType;
  /** The base64 payload (without the `data:...;base64,` prefix). */
  readonly base64: string;
  /** Decoded size in bytes. */
  readonly sizeBytes: number;
}

export type ParseImageDataUrlResult = { readonly ok: true; readonly image: ImageDataUrl } | { readonly ok: false; readonly message: string };

const PREFIX = /^data:([a-z]+\/[a-z0-9.+-]+);base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decoded byte length of a base64 string (padding respected). */
export function base64DecodedSize(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return (base64.length / 4) * 3 - padding;
}

export function parseImageDataUrl(value: string): ParseImageDataUrlResult {
  const prefix = PREFIX.exec(value);
  if (!prefix) return { ok: false, message: 'File must be an image data URL' };
  const mimeType = (prefix[1] ?? '').toLowerCase();
  const known = imageMimeTypes.find((type) => type === (mimeType === 'image/jpg' ? 'image/jpeg' : mimeType));
  if (!known) return { ok: false, message: 'Only PNG, JPEG, GIF and WebP images are allowed' };
  const base64 = value.slice(prefix[0].length);
  if (base64.length === 0 || base64.length % 4 !== 0 || !BASE64.test(base64)) return { ok: false, message: 'File is not valid base64' };
  return { ok: true, image: { mimeType: known, base64, sizeBytes: base64DecodedSize(base64) } };
}
