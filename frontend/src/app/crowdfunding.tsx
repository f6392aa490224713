// Crowd-funding on a book page touches four areas: pricing runs the campaign, the wallet
// pays the pledge (and offers a recharge), the catalog and the reader open the whole book
// to backers once it is funded. Features do not import each other, so the book pages get
// their campaign box from here, like the buy control (purchase.tsx).
import { useCallback } from 'react';
import { useLocation } from 'react-router-dom';
import { type Book, useViewer } from '@/features/catalog';
import { CampaignOnBook } from '@/features/pricing';
import { rechargePath } from '@/features/wallet';
import { loginPathWithRedirect } from '@/lib/redirect';
import { useRefreshAfterPurchase } from './purchase';

/** The `campaign` render function of BookDetail: the open campaign, pledge box or Close. */
export function useBookCampaign() {
  const viewer = useViewer();
  const location = useLocation();
  const refresh = useRefreshAfterPurchase();
  const here = location.pathname + location.search;
  return useCallback(
    (book: Book) => {
      const id = String(book.book_id ?? book.id ?? '');
      return (
        <CampaignOnBook
          bookId={id}
          loggedIn={viewer.loggedIn}
          viewerId={viewer.userId ?? null}
          loginTo={loginPathWithRedirect(here)}
          rechargeTo={(cents) => rechargePath(cents, here)}
          onChanged={refresh}
        />
      );
    },
    [viewer.loggedIn, viewer.userId, here, refresh],
  );
}
