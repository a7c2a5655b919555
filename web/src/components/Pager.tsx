import { Button } from './Button';
import type { CursorTrail } from '../lib/api/paging';

export interface PagerProps {
  /** What is paged, for the navigation's name: "Users pages". */
  readonly label: string;
  readonly trail: CursorTrail;
  /** The `next` of the page shown (null on the last page; undefined while it loads). */
  readonly nextCursor: string | null | undefined;
  readonly busy?: boolean;
}

/** Previous / Next for a keyset-paged list: no page count (nothing counts the rows), only where we are. */
export function Pager({ label, trail, nextCursor, busy = false }: PagerProps) {
  if (!trail.hasPrevious && !nextCursor) return null;
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <Button variant="secondary" disabled={!trail.hasPrevious || busy} onClick={trail.previous}>
        Previous
      </Button>
      <span className="pager-page" aria-live="polite">
        Page {trail.pageNumber}
      </span>
      <Button variant="secondary" disabled={!nextCursor || busy} onClick={() => nextCursor && trail.next(nextCursor)}>
        Next
      </Button>
    </nav>
  );
}

/** What QueryPager reads of a paged list's query (TanStack Query's result of a `{data, next}` page). */
export interface PagedQuery {
  readonly isPlaceholderData: boolean;
  readonly isFetching: boolean;
  readonly data?: { readonly next?: string | null } | undefined;
}

/** The Pager of a paged list's query: no Next while the previous page stands in for the one loading. */
export function QueryPager({ label, trail, query }: { readonly label: string; readonly trail: CursorTrail; readonly query: PagedQuery }) {
  return <Pager label={label} trail={trail} nextCursor={query.isPlaceholderData ? undefined : query.data?.next} busy={query.isFetching} />;
}
