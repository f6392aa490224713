import { Icon } from '@/components/Icon';

/** Quinn, the book assistant, arrives with the chat issue; until then the panel says so. */
export function ChatPanel() {
  return (
    <div className="reader-chat-placeholder">
      <div className="empty-icon" aria-hidden>
        <Icon name="chat" size={28} />
      </div>
      <p className="empty-title">Quinn is on the way</p>
      <p className="muted small">
        Quinn, our book assistant, will answer questions about this book and suggest what to read next. Chat opens with
        the next release.
      </p>
    </div>
  );
}
