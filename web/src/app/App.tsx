import { useEffect, useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { createQueryClient } from './queryClient';
import { createRouter } from './router';
import { SessionProvider, useSession } from '../lib/session/SessionContext';
import { setUnauthorizedHandler } from '../lib/api/apiClient';
import '../styles/global.css';

function RoutedApp() {
  const [router] = useState(createRouter);
  const session = useSession();
  const { forget } = session;
  useEffect(() => {
    setUnauthorizedHandler(() => {
      forget();
      // The spec: any 401 sends the visitor to /signin (which signs staff in too).
      void router.navigate('/signin', { state: { from: window.location.pathname } });
    });
  }, [forget, router]);
  return <RouterProvider router={router} />;
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <RoutedApp />
      </SessionProvider>
    </QueryClientProvider>
  );
}
