import { MAX_FILE_BYTES } from '@bank/domain/limits';

/** The spec's messages for a chosen file (section 8). */
export const NO_FILE_SELECTED = 'No file selected';
export const FILE_TOO_LARGE = 'File size must be less than 10MB';
export const NOT_AN_IMAGE = 'Please choose an image file (JPG, PNG, WebP or GIF)';

/** What is wrong with the file a person chose, or null when it can be uploaded. */
export function fileProblem(file: File | undefined): string | null {
  if (!file) return NO_FILE_SELECTED;
  if (file.size > MAX_FILE_BYTES) return FILE_TOO_LARGE;
  if (file.type && !file.type.startsWith('image/')) return NOT_AN_IMAGE;
  return null;
}

/** Reads a file as a data URL (data:image/png;base64,…). */
export function readFileAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => (typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('Could not read the file')));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file'));
    reader.readAsDataURL(file);
  });
}
