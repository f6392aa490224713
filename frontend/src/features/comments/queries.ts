import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/stores/toast';
import { deleteComment, listComments, postComment } from './api';

export const commentKeys = {
  all: ['comments'] as const,
  book: (bookId: string) => [...commentKeys.all, bookId] as const,
};

/** Newest first, page by page (contract: page from 1, default page size 10). */
export function useComments(bookId: string) {
  return useInfiniteQuery({
    queryKey: commentKeys.book(bookId),
    queryFn: ({ pageParam }) => listComments(bookId, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last) => {
      const seen = last.page * last.page_size;
      return last.result.length > 0 && seen < last.total ? last.page + 1 : undefined;
    },
    retry: false,
  });
}

export function useAddComment(bookId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (content: string) => postComment(bookId, content),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: commentKeys.book(bookId) });
      toast.success('Comment posted');
    },
  });
}

export function useDeleteComment(bookId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteComment(id),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: commentKeys.book(bookId) });
    },
  });
}
