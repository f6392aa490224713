// /reader?book_id=…: the book view, with Quinn in its Chat panel. Without a book (where a
// login lands): the chat with Quinn as the main part, continue reading beside it.
import { useLocation, useSearchParams } from 'react-router-dom';
import { useBookBuyControl } from '@/app/purchase';
import { ChatScreen } from '@/features/chat';
import { CommentsPanel } from '@/features/comments';
import { ContinueReading, ReaderView, type Book } from '@/features/reader';
import { loginPathWithRedirect } from '@/lib/redirect';
import { useTitle } from '@/lib/use-title';

const bookChat = (book: Book) => (
  <ChatScreen
    compact
    loginHref={loginPathWithRedirect(`/reader?book_id=${book.id}`)}
    starters={[{ label: 'Books like this one', utterance: `books like "${book.title}"` }]}
  />
);

export default function ReaderRoute() {
  const [params] = useSearchParams();
  const here = useLocation();
  const bookId = params.get('book_id')?.trim() ?? '';
  const buy = useBookBuyControl({ size: 'md', inReader: true });
  useTitle(bookId ? 'Reading' : 'Your reading room');
  if (!bookId) {
    return (
      <div className="reading-room" data-testid="reading-room">
        {/* key: every arrival here (a link, back, the header) is a new, empty conversation */}
        <ChatScreen key={here.key} loginHref={loginPathWithRedirect('/reader')} autoFocus />
        <ContinueReading />
      </div>
    );
  }
  // key: a different book is a fresh view (position, panels' state, viewer).
  return <ReaderView key={bookId} bookId={bookId} buy={buy} commentsPanel={<CommentsPanel bookId={bookId} />} chatPanel={bookChat} />;
}
