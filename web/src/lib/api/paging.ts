import { useCallback, useState } from 'react';

/** A page of a paged list of the API (docs/api.md, "Paged lists"): `next` is the cursor of the following page. */
export interface Page<T> {
  data: T[];
  next: string | null;
}

export interface CursorTrail {
  /** The cursor of the page shown; undefined on the first page. */
  readonly cursor: string | undefined;
  /** 1 on the first page. */
  readonly pageNumber: number;
  readonly hasPrevious: boolean;
  next(cursor: string): void;
  previous(): void;
  /** Back to the first page (a new search, a new filter). */
  reset(): void;
}

/**
 * The cursors of the pages already visited, so that "Previous" goes back without any offset: keyset pages only go
 * forward, and the way back is the cursor each earlier page was opened with. A new `listKey` (another search,
 * other filters) starts again at the first page, in the same render (no stale cursor is ever sent).
 */
export function useCursorTrail(listKey = ''): CursorTrail {
  const [state, setState] = useState<{ readonly key: string; readonly trail: readonly string[] }>({ key: listKey, trail: [] });
  const trail = state.key === listKey ? state.trail : [];
  const next = useCallback(
    (cursor: string) => setState((current) => ({ key: listKey, trail: [...(current.key === listKey ? current.trail : []), cursor] })),
    [listKey],
  );
  const previous = useCallback(
    () => setState((current) => ({ key: listKey, trail: current.key === listKey ? current.trail.slice(0, -1) : [] })),
    [listKey],
  );
  const reset = useCallback(() => setState({ key: listKey, trail: [] }), [listKey]);
  return { cursor: trail.at(-1), pageNumber: trail.length + 1, hasPrevious: trail.length > 0, next, previous, reset };
}
