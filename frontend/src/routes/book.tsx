import { useSearchParams } from 'react-router-dom';
import { BookDetail } from '@/features/catalog';
import { CommentsPanel } from '@/features/comments';

/** /platform/book?book_id=… */
export default function BookRoute() {
  const [params] = useSearchParams();
  const bookId = params.get('book_id')?.trim() || null;
  return (
    <div className="page">
      <BookDetail bookId={bookId} comments={bookId ? <CommentsPanel bookId={bookId} /> : null} />
    </div>
  );
}
