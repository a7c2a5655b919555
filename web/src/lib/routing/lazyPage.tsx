import { lazy, useState, type ComponentType } from 'react';

/** A screen whose code loads on first use; `preload()` starts (or joins) that load. */
export type LazyPage = ComponentType & { readonly preload: () => Promise<ComponentType> };

/**
 * A route's screen, loaded on first use:
 * `{ path: 'about', Component: lazyPage(() => import('./pages/AboutPage'), 'AboutPage') }`.
 *
 * The page's module (and what only it imports: its CSS, form schemas, charts) becomes a chunk of its own that the
 * browser fetches when the route first renders. Until it has arrived the screen suspends (React.lazy): navigations
 * are transitions, so the current screen stays until the next is ready. Once loaded — main.tsx preloads the first
 * screen before it renders (loadInitialRoutes) — the screen renders directly, with no loading state. Name the
 * module's export; keep the import a literal `import('…')` so the bundler sees it. See docs/web.md, "Adding a screen".
 */
export function lazyPage<Module, Name extends keyof Module>(
  load: () => Promise<Module>,
  name: Name & (Module[Name] extends ComponentType ? unknown : never),
): LazyPage {
  let loaded: ComponentType | undefined;
  let pending: Promise<ComponentType> | undefined;
  const preload = () => {
    pending ??= load().then(
      (module) => (loaded = module[name] as ComponentType),
      (error: unknown) => {
        pending = undefined; // the next render tries again
        throw error;
      },
    );
    return pending;
  };
  const Suspending = lazy(() => preload().then((Page) => ({ default: Page })));
  function Lazy() {
    // Chosen once per mounted screen: a screen first shown through the suspending wrapper keeps it, so a later render
    // (a navigation that only replaces the history entry's state) cannot swap the element type and remount the
    // screen, which would lose its state (the "Transfer Successful" message handed over in the router state).
    const [Page] = useState<ComponentType>(() => loaded ?? Suspending);
    return <Page />;
  }
  Lazy.displayName = `lazyPage(${String(name)})`;
  return Object.assign(Lazy, { preload });
}
