// /reader?book_id=…: the book view; without a book: continue reading.
import { useSearchParams } from 'react-router-dom';
import { useBookBuyControl } from '@/app/purchase';
import { CommentsPanel } from '@/features/comments';
import { ContinueReading, ReaderView } from '@/features/reader';
import { useTitle } from '@/lib/use-title';

export default function ReaderRoute() {
  const [params] = useSearchParams();
  const bookId = params.get('book_id')?.trim() ?? '';
  const buy = useBookBuyControl({ size: 'md', inReader: true });
  useTitle(bookId ? 'Reading' : 'Your reading room');
  if (!bookId) return <ContinueReading />;
  // key: a different book is a fresh view (position, panels' state, viewer).
  return <ReaderView key={bookId} bookId={bookId} buy={buy} commentsPanel={<CommentsPanel bookId={bookId} />} />;
}
