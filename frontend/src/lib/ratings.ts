// A reader's rating of a book they own (PUT /api/books/{id}/rating): the book page and the
// end of the book both rate through here, and every list of books shows the new average
// once it is saved.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { components } from '@/lib/api-schema';
import { toast } from '@/stores/toast';

export type BookRating = components['schemas']['BookRatingOut'];

export const rateBook = (bookId: string, stars: number) =>
  api.put<BookRating>(`/books/${encodeURIComponent(bookId)}/rating`, { json: { stars } });

/** Rates the book; the catalog's and the reader's copies of it are fetched again. */
export function useRateBook(bookId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (stars: number) => rateBook(bookId, stars),
    onSuccess: async () => {
      toast.success('Thank you: your rating is saved');
      await Promise.all([
        client.invalidateQueries({ queryKey: ['catalog'] }),
        client.invalidateQueries({ queryKey: ['reader', 'book', bookId] }),
      ]);
    },
  });
}
