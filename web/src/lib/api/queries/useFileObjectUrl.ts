import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../apiError';
import { readToken } from '../../session/sessionStorage';
import { queryKeys } from './queryKeys';

const API_BASE = (import.meta.env.VITE_API_URL as string | undefined)?.replace(/\/$/, '') ?? '/api';

/** The contract's file urls are /api/files/:id; when the API lives elsewhere (VITE_API_URL) they point there. */
function resolveFileUrl(url: string): string {
  if (url.startsWith('/api/') && API_BASE !== '/api') return `${API_BASE}${url.slice('/api'.length)}`;
  return url;
}

async function fetchFile(url: string, signal: AbortSignal): Promise<Blob> {
  const token = readToken();
  const response = await fetch(resolveFileUrl(url), {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    credentials: 'include',
    signal,
  });
  if (!response.ok) throw new ApiError(response.status, response.statusText || 'The image could not be loaded');
  return response.blob();
}

/**
 * A stored image (GET /api/files/:id) needs the bearer token, so a bare <img src> cannot show it: it is fetched
 * with the token and shown through an object URL, revoked when no longer used.
 */
export function useFileObjectUrl(url: string | null | undefined) {
  const query = useQuery({
    queryKey: queryKeys.file(url ?? ''),
    queryFn: ({ signal }) => fetchFile(url ?? '', signal),
    enabled: Boolean(url),
    staleTime: Infinity,
    retry: false,
  });
  const blob = query.data;
  const [objectUrl, setObjectUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob || typeof URL.createObjectURL !== 'function') return;
    const created = URL.createObjectURL(blob);
    setObjectUrl(created);
    return () => {
      URL.revokeObjectURL(created);
      setObjectUrl(null);
    };
  }, [blob]);
  return { objectUrl, isLoading: query.isLoading, isError: query.isError };
}
