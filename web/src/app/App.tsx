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
      const here = window.location.pathname;
      const target = here.startsWith('/admin') ? '/admin/login' : '/signin';
      void router.navigate(target, { state: { from: here } });
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
