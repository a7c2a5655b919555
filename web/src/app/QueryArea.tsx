import { useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { createQueryClient } from './queryClient';

/**
 * The query cache (TanStack Query) for the screens that talk to the API: sign-in and sign-up, the customer area, the
 * admin area and the audit screens. The public pages need none, so the library is not part of their first load.
 * The cache lives while the visitor stays among these screens.
 */
export function QueryArea() {
  const [client] = useState(createQueryClient);
  return (
    <QueryClientProvider client={client}>
      <Outlet />
    </QueryClientProvider>
  );
}
