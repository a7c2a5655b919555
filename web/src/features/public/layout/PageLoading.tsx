import { LoadingBlock } from '../../../components/Spinner';

/**
 * What a public page shows while its code first loads: rarely seen, since main.tsx loads the first screen before
 * rendering and navigations keep the current page until the next one is ready. Tall enough that the footer does
 * not jump when the page arrives.
 */
export function PageLoading() {
  return (
    <div className="page-loading">
      <LoadingBlock />
    </div>
  );
}
