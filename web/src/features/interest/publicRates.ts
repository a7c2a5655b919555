import { useEffect, useState } from 'react';
import type { Rate } from './interestTypes';

const API_BASE = (import.meta.env.VITE_API_URL as string | undefined)?.replace(/\/$/, '') ?? '/api';

export type PublicRates = { readonly status: 'loading' } | { readonly status: 'error' } | { readonly status: 'ready'; readonly rates: readonly Rate[] };

/** GET /rates (public) without the query cache: the public pages do not load it (docs/web.md). */
export async function fetchRates(signal?: AbortSignal): Promise<Rate[]> {
  const response = await fetch(`${API_BASE}/rates`, { headers: { Accept: 'application/json' }, ...(signal ? { signal } : {}) });
  if (!response.ok) throw new Error(`GET /rates answered ${response.status}`);
  return ((await response.json()) as { data: Rate[] }).data;
}

/** The bank's rates for a public page: loading, then the list, or an error the page words itself. */
export function usePublicRates(): PublicRates {
  const [state, setState] = useState<PublicRates>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    fetchRates(controller.signal).then(
      (rates) => setState({ status: 'ready', rates }),
      () => {
        if (!controller.signal.aborted) setState({ status: 'error' });
      },
    );
    return () => controller.abort();
  }, []);
  return state;
}
