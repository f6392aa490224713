// Buying a book touches three areas: the wallet sells it, the catalog shows it as owned, the
// reader opens the whole file. Features do not import each other, so the pages that sell
// (book, h5 book, reader) get their buy control and its aftermath from here.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { catalogKeys, desktopLinks, type Book } from '@/features/catalog';
import { readerKeys } from '@/features/reader';
import { BuyBook, walletKeys } from '@/features/wallet';

/** Refreshes what a purchase unlocks: the book (entitled), its content and toc, the library. */
export function useRefreshAfterPurchase() {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: catalogKeys.all }),
      queryClient.invalidateQueries({ queryKey: readerKeys.all }),
      queryClient.invalidateQueries({ queryKey: walletKeys.all }),
    ]);
  }, [queryClient]);
}

export interface SellableBook {
  id?: string;
  book_id?: string;
  title: string;
  price?: number | string | null;
  entitled?: boolean | null;
  bought?: boolean | null;
}

/**
 * The buy control of a page that sells a book: a render function for BookDetail's and
 * ReaderView's `buy`. `inReader`: the reader itself opens the whole book once bought.
 */
export function useBookBuyControl({ size = 'lg', inReader = false }: { size?: 'md' | 'lg'; inReader?: boolean } = {}) {
  const refresh = useRefreshAfterPurchase();
  return useCallback(
    (book: Book | SellableBook) => {
      const id = String(book.book_id ?? book.id ?? '');
      return (
        <BuyBook
          bookId={id}
          title={book.title}
          price={book.price}
          owned={Boolean(book.entitled || book.bought)}
          readTo={inReader ? undefined : desktopLinks.read(id)}
          onBought={refresh}
          size={size}
        />
      );
    },
    [refresh, size, inReader],
  );
}
