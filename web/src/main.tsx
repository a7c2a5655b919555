import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { routes } from './app/router';
import { loadInitialRoutes } from './lib/routing/loadInitialRoutes';
import { makeZodJitless } from './lib/zodJitless';

makeZodJitless();

// A deployment replaces the hashed chunks: a tab opened before it asks for files that are gone. Reload the page
// (once per minute at most), which brings the new build's names.
window.addEventListener('vite:preloadError', (event) => {
  const last = Number(sessionStorage.getItem('reloadedForChunks') ?? 0);
  if (Date.now() - last < 60_000) return;
  event.preventDefault();
  sessionStorage.setItem('reloadedForChunks', String(Date.now()));
  window.location.reload();
});

void loadInitialRoutes(routes, window.location.pathname).then(() => {
  const root = createRoot(document.getElementById('root')!);
  // A transition renders in slices that yield to the browser, so the first render of a long page (the home page) is
  // no long task holding up a tap; it shows when complete, as before.
  startTransition(() => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
});
