// The conversation: the reader's lines on the right, Quinn's on the left, each with its
// time; a recommendation line carries its books as cards. The list is a log region, so a
// screen reader hears each new line.
import { Icon } from '@/components/Icon';
import { formatDateTime } from '@/lib/dates';
import type { ChatEntry } from '../conversation';
import { RecBookCard, recBookId } from './RecBookCard';

/** "8:14 PM": the time of day a line was said; empty when unreadable. */
export function clockTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
}

export interface MessageListProps {
  name: string;
  entries: ChatEntry[];
  bookHref: (bookId: string) => string;
}

export function MessageList({ name, entries, bookHref }: MessageListProps) {
  return (
    <ol className="quinn-messages" role="log" aria-live="polite" aria-relevant="additions" aria-label={`Conversation with ${name}`}>
      {entries.map((e) => (
        <li key={e.id} className={`quinn-msg quinn-msg-${e.role}`} data-testid={`${e.role}-message`}>
          {e.role === 'bot' ? (
            <span className="quinn-avatar" aria-hidden>
              <Icon name="sparkles" size={14} />
            </span>
          ) : null}
          <div className="quinn-msg-body">
            <p className="quinn-bubble">
              <span className="quinn-sr-only">{e.role === 'bot' ? `${name}: ` : 'You: '}</span>
              {e.text}
            </p>
            {e.books && e.books.length > 0 ? (
              <ul className="rec-list" aria-label={`Books ${name} found`}>
                {e.books.map((b, i) => (
                  // the position too: a list that names a book twice must still render both
                  <li key={`${recBookId(b)}-${i}`}>
                    <RecBookCard book={b} href={bookHref(recBookId(b))} />
                  </li>
                ))}
              </ul>
            ) : null}
            <time className="quinn-time" dateTime={e.at} title={formatDateTime(e.at)}>
              {e.sending ? 'Sending…' : clockTime(e.at)}
            </time>
          </div>
        </li>
      ))}
    </ol>
  );
}
