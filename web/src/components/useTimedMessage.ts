import { useCallback, useEffect, useRef, useState } from 'react';

/** A message that clears itself after `ms` (the spec's 3-second banners). */
export function useTimedMessage(ms = 3000): [string | null, (message: string | null) => void] {
  const [message, setMessage] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const show = useCallback(
    (next: string | null) => {
      clearTimeout(timer.current);
      setMessage(next);
      if (next !== null) timer.current = setTimeout(() => setMessage(null), ms);
    },
    [ms],
  );
  useEffect(() => () => clearTimeout(timer.current), []);
  return [message, show];
}
