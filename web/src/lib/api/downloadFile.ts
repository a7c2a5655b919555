import { ApiError } from './apiError';
import { readToken } from '../session/sessionStorage';

const API_BASE = (import.meta.env.VITE_API_URL as string | undefined)?.replace(/\/$/, '') ?? '/api';

export interface Download {
  readonly blob: Blob;
  /** From Content-Disposition, else the fallback. */
  readonly fileName: string;
}

function fileNameOf(disposition: string | null, fallback: string): string {
  const match = disposition ? /filename="?([^";]+)"?/i.exec(disposition) : null;
  return match?.[1]?.trim() || fallback;
}

/**
 * A file the API answers as an attachment. The API takes a bearer token, which a plain link cannot carry, so the
 * file is fetched with it and handed over as a Blob (save it with `saveBlob`). Rejects with an ApiError carrying the
 * server's message.
 */
export async function fetchDownload(path: string, query: Record<string, string> = {}, fallbackName = 'download'): Promise<Download> {
  const token = readToken();
  const search = new URLSearchParams(query).toString();
  const response = await fetch(`${API_BASE}${path}${search ? `?${search}` : ''}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    credentials: 'include',
  });
  if (!response.ok) {
    let message = response.statusText || 'The file could not be downloaded';
    try {
      message = ((await response.json()) as { message?: string }).message ?? message;
    } catch {
      // not JSON: keep the status text
    }
    throw new ApiError(response.status, message);
  }
  return { blob: await response.blob(), fileName: fileNameOf(response.headers.get('Content-Disposition'), fallbackName) };
}

/** Offers a Blob to the browser as a file download named `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
