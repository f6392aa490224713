import { useSearchParams } from 'react-router-dom';
import { useBookCampaign } from '@/app/crowdfunding';
import { useBookBuyControl } from '@/app/purchase';
import { BookDetail } from '@/features/catalog';
import { CommentsPanel } from '@/features/comments';

/** /platform/book?book_id=… */
export default function BookRoute() {
  const [params] = useSearchParams();
  const bookId = params.get('book_id')?.trim() || null;
  const buy = useBookBuyControl();
  const campaign = useBookCampaign();
  return (
    <div className="page">
      <BookDetail bookId={bookId} buy={buy} campaign={campaign} comments={bookId ? <CommentsPanel bookId={bookId} /> : null} />
    </div>
  );
}
