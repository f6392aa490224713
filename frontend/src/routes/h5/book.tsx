import { useSearchParams } from 'react-router-dom';
import { useBookCampaign } from '@/app/crowdfunding';
import { useBookBuyControl } from '@/app/purchase';
import { BookDetail, CatalogLinksProvider, h5Links } from '@/features/catalog';
import { CommentsPanel } from '@/features/comments';

/** /platform/h5/book?book_id=…: the book page laid out for a phone. */
export default function H5BookRoute() {
  const [params] = useSearchParams();
  const bookId = params.get('book_id')?.trim() || null;
  const buy = useBookBuyControl();
  const campaign = useBookCampaign();
  return (
    <CatalogLinksProvider value={h5Links}>
      <div className="page h5-page">
        <BookDetail
          bookId={bookId}
          variant="h5"
          buy={buy}
          campaign={campaign}
          comments={bookId ? <CommentsPanel bookId={bookId} /> : null}
        />
      </div>
    </CatalogLinksProvider>
  );
}
