import { useEffect } from 'react';
import { BrowserRouter, useNavigate } from 'react-router';
import { AppRoutes } from './router';
import { SessionProvider, useSession } from '../lib/session/SessionContext';
import { setUnauthorizedHandler } from '../lib/api/apiClient';
import '../styles/global.css';

/** The spec: any 401 forgets the session and sends the visitor to /signin (which signs staff in too). */
function UnauthorizedRedirect() {
  const navigate = useNavigate();
  const { forget } = useSession();
  useEffect(() => {
    setUnauthorizedHandler(() => {
      forget();
      void navigate('/signin', { state: { from: window.location.pathname } });
    });
  }, [forget, navigate]);
  return null;
}

export function App() {
  return (
    <SessionProvider>
      <BrowserRouter>
        <UnauthorizedRedirect />
        <AppRoutes />
      </BrowserRouter>
    </SessionProvider>
  );
}
