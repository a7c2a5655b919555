import { DomainError, MAX_FILE_BYTES, type FileUpload, type ImageDataUrl } from '@bank/domain';
import type pg from 'pg';
import { invalidField } from '../../http/httpErrors';
import { fileIdOf, saveFile, sha256Hex } from './fileStore';
import { detectImageType, type ImageType } from './imageType';

export const NOT_AN_IMAGE_MESSAGE = 'File must be a PNG, JPEG, GIF or WebP image';

/** An uploaded image, decoded and checked, not stored yet. */
export interface DecodedImage {
  readonly bytes: Buffer;
  readonly mime: ImageType;
  /** What a command carries: the (content-derived) file id, the hash and the size. */
  readonly upload: FileUpload;
}

/**
 * Decodes a data-URL image (already parsed by the domain's zod field) and checks it: over 10 MB decoded is 422
 * 'File size must be less than 10MB'; bytes that are not a PNG, JPEG, GIF or WebP (by their magic number, whatever
 * the data URL claims) are 400 on `path`.
 */
export function decodeImage(image: ImageDataUrl, path: string): DecodedImage {
  if (image.sizeBytes > MAX_FILE_BYTES) throw new DomainError('file_too_large');
  const bytes = Buffer.from(image.base64, 'base64');
  if (bytes.length > MAX_FILE_BYTES) throw new DomainError('file_too_large');
  const mime = detectImageType(bytes);
  if (!mime) throw invalidField(path, NOT_AN_IMAGE_MESSAGE);
  const sha256 = sha256Hex(bytes);
  return { bytes, mime, upload: { fileId: fileIdOf(sha256), sha256, sizeBytes: bytes.length } };
}

/** Stores a decoded image for its uploader. */
export async function storeImage(pool: pg.Pool, image: DecodedImage, ownerId: string): Promise<FileUpload> {
  await saveFile(pool, { bytes: image.bytes, mime: image.mime, ownerId });
  return image.upload;
}
