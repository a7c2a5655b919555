import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api/apiClient';
import type { Page } from '../../lib/api/paging';
import type { Envelope } from '../../lib/api/types';
import type { AchFileDetail, AchFileSummary, AchIncomingResult, AchReturnsResult, AchUploadKind } from './achTypes';

/** Files per page of the list ("Show more files" asks for the next; the API allows up to 500). */
export const ACH_PAGE_SIZE = 50;

export const achKeys = {
  all: () => ['ach'] as const,
  files: () => ['ach', 'files'] as const,
  file: (id: string) => ['ach', 'file', id] as const,
};

const unwrap = <T>(answer: Envelope<T>) => answer.data;

/** GET /admin/ach/files: the files, a page at a time (`fetchNextPage`: Show more). */
export function useAchFiles() {
  return useInfiniteQuery({
    queryKey: achKeys.files(),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => api.get<Page<AchFileSummary>>('/admin/ach/files', { query: { limit: ACH_PAGE_SIZE, cursor: pageParam }, signal }),
    getNextPageParam: (lastPage) => lastPage.next ?? undefined,
    select: (answer) => answer.pages.flatMap((page) => page.data),
  });
}

/** GET /admin/ach/files/:id: a file's fields and its entries. */
export function useAchFile(id: string) {
  return useQuery({
    queryKey: achKeys.file(id),
    queryFn: ({ signal }) => api.get<Envelope<AchFileDetail>>(`/admin/ach/files/${encodeURIComponent(id)}`, { signal }).then(unwrap),
  });
}

/** What POST /admin/ach/files answered: the file built (201), or null and the server's words (200 `No entries waiting`). */
export interface BuildOutcome {
  readonly file: AchFileDetail | AchFileSummary | null;
  readonly message: string | undefined;
}

/** POST /admin/ach/files (admins): builds a file now from every waiting entry. */
export function useBuildAchFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<BuildOutcome> => {
      const answer = await api.post<Envelope<AchFileDetail | AchFileSummary | null>>('/admin/ach/files');
      return { file: answer.data ?? null, message: answer.message };
    },
    // Reload the list either way: with none waiting, a cut-off may just have built the file they were in.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: achKeys.all() }),
  });
}

type UploadResult<K extends AchUploadKind> = K extends 'returns' ? AchReturnsResult : AchIncomingResult;

/** POST /admin/ach/returns or /admin/ach/incoming (admins): the NACHA file's text as a `text/plain` body. */
export function useUploadAchFile<K extends AchUploadKind>(kind: K) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => api.postText<Envelope<UploadResult<K>>>(`/admin/ach/${kind}`, text).then(unwrap),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: achKeys.all() });
      // Returns and credits move money: the ledger's figures change too.
      void queryClient.invalidateQueries({ queryKey: ['ledger'] });
    },
  });
}
