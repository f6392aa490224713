// Query keys and hooks of the reader. Server state stays in react-query.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCurrentUser } from '@/lib/me';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import { RATING_WORDS_MAX } from './rating';
import { toast } from '@/stores/toast';
import {
  addBookmark,
  deleteBookmark,
  fetchBookContent,
  getBook,
  getBookmarks,
  getBoughtBooks,
  getFavourites,
  getHistory,
  getProgress,
  getToc,
  postComment,
  searchByGenre,
} from './api';
import type { Bookmark } from './types';

export const readerKeys = {
  all: ['reader'] as const,
  book: (id: string) => [...readerKeys.all, 'book', id] as const,
  toc: (id: string) => [...readerKeys.all, 'toc', id] as const,
  content: (id: string, who: string) => [...readerKeys.all, 'content', id, who] as const,
  progress: (id: string) => [...readerKeys.all, 'progress', id] as const,
  bookmarks: (id: string) => [...readerKeys.all, 'bookmarks', id] as const,
  genre: (genre: string) => [...readerKeys.all, 'genre', genre] as const,
  history: () => [...readerKeys.all, 'history'] as const,
  favourites: () => [...readerKeys.all, 'favourites'] as const,
  bought: (uid: string) => [...readerKeys.all, 'bought', uid] as const,
};

const noRetryOn4xx = (count: number, error: unknown) => {
  const status = (error as { status?: number })?.status ?? 0;
  return status >= 400 && status < 500 ? false : count < 2;
};

export function useBook(bookId: string) {
  return useQuery({ queryKey: readerKeys.book(bookId), queryFn: () => getBook(bookId), retry: noRetryOn4xx });
}

/** Read afresh at every opening, like the file it describes (see useBookContent). */
export function useToc(bookId: string) {
  return useQuery({
    queryKey: readerKeys.toc(bookId),
    queryFn: async () => {
      const toc = await getToc(bookId);
      return Array.isArray(toc) ? [...toc].sort((a, b) => a.index - b.index) : [];
    },
    retry: noRetryOn4xx,
    staleTime: 0,
    gcTime: 0,
  });
}

/**
 * The file; keyed by who asks, since a buyer and a visitor get different bytes. It stays
 * as it is while the book is open, and is dropped when the reader closes: the sample is
 * the server's to decide (an admin may change the trial percentage or replace the file at
 * any time), so every opening reads the bytes the server gives now, never the ones of an
 * earlier visit beside a table of contents and saved place made for another file.
 */
export function useBookContent(bookId: string) {
  const user = useCurrentUser();
  const who = user?.user_id ? String(user.user_id) : 'anonymous';
  return useQuery({
    queryKey: readerKeys.content(bookId, who),
    queryFn: ({ signal }) => fetchBookContent(bookId, { signal }),
    retry: noRetryOn4xx,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
}

export function useServerProgress(bookId: string) {
  const loggedIn = useAuthStore(selectIsLoggedIn);
  return useQuery({
    queryKey: readerKeys.progress(bookId),
    queryFn: () => getProgress(bookId),
    enabled: loggedIn,
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

export function useBookmarks(bookId: string) {
  const loggedIn = useAuthStore(selectIsLoggedIn);
  return useQuery({
    queryKey: readerKeys.bookmarks(bookId),
    queryFn: async () => {
      const list = await getBookmarks(bookId);
      return Array.isArray(list) ? list : [];
    },
    enabled: loggedIn,
  });
}

export function useAddBookmark(bookId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { cfi: string; title: string }) => addBookmark(bookId, input),
    onSuccess: (bookmark) => {
      client.setQueryData<Bookmark[]>(readerKeys.bookmarks(bookId), (old) => [bookmark, ...(old ?? [])]);
      toast.success('Bookmark added');
    },
  });
}

export function useDeleteBookmark(bookId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteBookmark(id),
    onSuccess: (_r, id) => {
      client.setQueryData<Bookmark[]>(readerKeys.bookmarks(bookId), (old) => (old ?? []).filter((b) => b.id !== id));
    },
  });
}

/** A few words from the end of the book, posted as a comment (the stars go through useRateBook of lib/ratings). */
export function usePostWords(bookId: string) {
  return useMutation({
    mutationFn: (words: string) => postComment(bookId, words.trim().slice(0, RATING_WORDS_MAX)),
  });
}

export function useSameGenre(genre: string | undefined) {
  return useQuery({
    queryKey: readerKeys.genre(genre ?? ''),
    queryFn: () => searchByGenre(genre ?? ''),
    enabled: Boolean(genre),
    retry: false,
  });
}

export function useHistory(enabled = true) {
  return useQuery({
    queryKey: readerKeys.history(),
    queryFn: async () => {
      const list = await getHistory();
      return Array.isArray(list) ? list : [];
    },
    enabled,
    retry: false,
  });
}

export function useFavourites(enabled = true) {
  return useQuery({
    queryKey: readerKeys.favourites(),
    queryFn: async () => {
      const list = await getFavourites();
      return Array.isArray(list) ? list : [];
    },
    enabled,
    retry: false,
  });
}

export function useBoughtBooks(uid: string | undefined) {
  return useQuery({
    queryKey: readerKeys.bought(uid ?? ''),
    queryFn: async () => {
      const list = await getBoughtBooks(uid ?? '');
      return Array.isArray(list) ? list : [];
    },
    enabled: Boolean(uid),
    retry: false,
  });
}
