import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

/** A one-time message handed over in the router state (e.g. 'User deleted'), removed from the history entry once read. */
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
