// react-query hooks over the catalog's calls. Server state stays here (never in zustand);
// mutations refresh what they change.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/stores/toast';
import {
  adminListBooks,
  catalogKeys,
  getBook,
  getBooks,
  getBoughtBooks,
  getFavourites,
  getPublishers,
  getSettings,
  getShelf,
  getToc,
  listBooks,
  publishBookStatus,
  searchBooks,
  setFavourite,
  takedownBook,
  updateBook,
} from './api';
import type { Book, BookFilters, BookUpdate, SearchInput } from './types';

export function useBook(bookId: string | null | undefined) {
  return useQuery({
    queryKey: catalogKeys.book(bookId ?? ''),
    queryFn: () => getBook(bookId as string),
    enabled: Boolean(bookId),
  });
}

export function useBookList(filters: BookFilters, enabled = true) {
  return useQuery({
    queryKey: catalogKeys.list(filters),
    queryFn: () => listBooks(filters),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useSearch(input: SearchInput, enabled = true, quiet = false) {
  return useQuery({
    queryKey: catalogKeys.search(input),
    queryFn: ({ signal }) => searchBooks(input, signal, quiet),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Every genre of the shop with its count: a browse search (empty text) carries the facets. */
export function useGenres() {
  return useQuery({
    queryKey: catalogKeys.search({ query: '', page_size: 1 }),
    queryFn: ({ signal }) => searchBooks({ query: '', page_size: 1 }, signal, true),
    staleTime: 60_000,
    select: (reply) =>
      Object.entries(reply.facets.genre)
        .filter(([name]) => name.trim() !== '')
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .map(([name, count]) => ({ name, count })),
  });
}

export function useWriterBooks(writerId: string | null) {
  return useQuery({
    queryKey: catalogKeys.byWriter(writerId ?? ''),
    queryFn: () => getBooks({ upload_writer_id: writerId as string }),
    enabled: Boolean(writerId),
  });
}

export function useBoughtBooks(uid: string | null) {
  return useQuery({
    queryKey: catalogKeys.bought(uid ?? ''),
    queryFn: () => getBoughtBooks(uid as string),
    enabled: Boolean(uid),
  });
}

export function useFavourites(enabled: boolean) {
  return useQuery({ queryKey: catalogKeys.favourites(), queryFn: getFavourites, enabled });
}

export function useToc(bookId: string | null | undefined) {
  return useQuery({
    queryKey: catalogKeys.toc(bookId ?? ''),
    queryFn: () => getToc(bookId as string),
    enabled: Boolean(bookId),
  });
}

export function usePublishers() {
  return useQuery({ queryKey: catalogKeys.publishers(), queryFn: getPublishers });
}

export function useShelf(publisherId: string | null | undefined) {
  return useQuery({
    queryKey: catalogKeys.shelf(publisherId ?? ''),
    queryFn: () => getShelf(publisherId as string),
    enabled: Boolean(publisherId),
  });
}

export function useAdminBooks(query: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: catalogKeys.adminBooks(query, page, pageSize),
    queryFn: () => adminListBooks(query, page, pageSize),
    placeholderData: keepPreviousData,
  });
}

export function useSettings() {
  return useQuery({ queryKey: catalogKeys.settings(), queryFn: getSettings });
}

/** Puts a changed book into every cached copy of it, then refetches the lists. */
function useBookChanged() {
  const queryClient = useQueryClient();
  return async (book: Partial<Book> & { id?: string; book_id?: string }) => {
    const id = book.book_id ?? book.id;
    if (id) {
      queryClient.setQueryData<Book | null>(catalogKeys.book(id), (old) => (old ? { ...old, ...book } : old));
    }
    await queryClient.invalidateQueries({ queryKey: catalogKeys.all });
  };
}

/** `{ inPlace: true }`: the caller shows a refusal itself (no toast besides it). */
export function useUpdateBook(uid: string, bookId: string, { inPlace = false }: { inPlace?: boolean } = {}) {
  const changed = useBookChanged();
  return useMutation({
    mutationFn: (update: BookUpdate) => updateBook(uid, bookId, update, !inPlace),
    onSuccess: async (book) => {
      toast.success('Book saved');
      await changed(book && typeof book === 'object' ? book : { book_id: bookId });
    },
  });
}

export function usePublishStatus(userId: string | null) {
  const changed = useBookChanged();
  return useMutation({
    mutationFn: ({ bookId, on }: { bookId: string; on: boolean }) => {
      if (!userId) throw new Error('Log in to change this');
      return publishBookStatus(userId, bookId, on);
    },
    onSuccess: (status, { bookId, on }) => changed({ book_id: bookId, on: status?.on ?? on, listed: status?.listed }),
  });
}

/** The shelf switch of a publisher: same call, but what changes is the shelf. */
export function useShelfSwitch(publisherId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ bookId, on }: { bookId: string; on: boolean }) => {
      if (!publisherId) throw new Error('Log in to change this');
      return publishBookStatus(publisherId, bookId, on);
    },
    onSuccess: async (_status, { on }) => {
      toast.success(on ? 'Added to your shelf' : 'Taken off your shelf');
      await queryClient.invalidateQueries({ queryKey: catalogKeys.all });
    },
  });
}

export function useToggleFavourite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ bookId, favourite }: { bookId: string; favourite: boolean }) => setFavourite(bookId, favourite),
    onMutate: ({ bookId, favourite }) => {
      queryClient.setQueryData<Book | null>(catalogKeys.book(bookId), (old) => (old ? { ...old, favourite } : old));
    },
    onError: (_e, { bookId, favourite }) => {
      queryClient.setQueryData<Book | null>(catalogKeys.book(bookId), (old) => (old ? { ...old, favourite: !favourite } : old));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: catalogKeys.books() }),
  });
}

export function useTakedown() {
  const changed = useBookChanged();
  return useMutation({
    mutationFn: ({ bookId, takenDown, reason }: { bookId: string; takenDown: boolean; reason?: string }) =>
      takedownBook(bookId, { taken_down: takenDown, reason }),
    onSuccess: async (book, { bookId, takenDown }) => {
      toast.success(takenDown ? 'Book taken down' : 'Book restored');
      await changed(book && typeof book === 'object' ? book : { book_id: bookId, taken_down: takenDown });
    },
  });
}

