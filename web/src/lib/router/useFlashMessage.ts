import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';

/** The router's own record in a browser history entry: what `navigate(…, { state })` handed over sits in `usr`. */
function isRouterEntry(entry: unknown): entry is { usr?: unknown } {
  return typeof entry === 'object' && entry !== null && 'usr' in entry;
}

/**
 * A one-time message handed over in the router state by the screen before (e.g. 'Transfer Successful',
 * 'User deleted').
 *
 * It is taken into the screen's state and cleared from the browser's history entry, so a reload or coming back to the
 * entry does not show it again. The entry is rewritten with `history.replaceState`, not with a router navigation: a
 * navigation would render the routes again while the screen may still be settling (its code just loaded), and a
 * screen mounted again then would find no message (seen under load in the browser tests).
 */
export function useFlashMessage(): [string | null, (message: string | null) => void] {
  const location = useLocation();
  const state: unknown = location.state;
  const handed = typeof state === 'object' && state !== null && 'message' in state && typeof state.message === 'string' ? state.message : null;
  const [message, setMessage] = useState<string | null>(handed);
  useEffect(() => {
    if (handed === null) return;
    setMessage(handed);
    const entry: unknown = window.history.state;
    if (isRouterEntry(entry)) window.history.replaceState({ ...entry, usr: null }, '');
  }, [handed, location.key]);
  return [message, setMessage];
}
