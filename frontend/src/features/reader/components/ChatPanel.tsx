// The reader's Chat panel: Quinn in compact form, beside the book. The chat itself belongs
// to the chat feature; the route hands it in (features do not import each other), given the
// book so it can offer "Books like this one".
import type { ReactNode } from 'react';
import type { Book } from '../types';

export interface ChatPanelProps {
  book: Book;
  /** Renders the compact chat for this book. */
  render: (book: Book) => ReactNode;
}

export function ChatPanel({ book, render }: ChatPanelProps) {
  return (
    <div className="reader-chat" data-testid="reader-chat">
      {render(book)}
    </div>
  );
}
