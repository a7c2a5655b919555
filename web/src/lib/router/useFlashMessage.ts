import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * A one-time message handed over in the router state by the screen before (e.g. 'Transfer Successful',
 * 'User deleted').
 * It is taken once and removed from the history entry, so going back or reloading does not show it again.
 */
export function useFlashMessage(): [string | null, (message: string | null) => void] {
  const location = useLocation();
  const navigate = useNavigate();
  const state: unknown = location.state;
  const handed = typeof state === 'object' && state !== null && 'message' in state && typeof state.message === 'string' ? state.message : null;
  const [message, setMessage] = useState<string | null>(handed);
  useEffect(() => {
    if (handed === null) return;
    setMessage(handed);
    void navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [handed, navigate, location.pathname, location.search]);
  return [message, setMessage];
}
