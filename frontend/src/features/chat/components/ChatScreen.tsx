// Chatting with Quinn: the opening mood panel until the first books arrive, the
// conversation, Quinn's "looking" line while a turn is under way, a failure in plain words
// with a retry, suggestion chips, and the input. Signed-out visitors see the moods and a
// sign-in prompt instead of the input. Everything said lives only while the screen is
// shown: leaving it (or "New chat") starts an empty conversation with a fresh id.
// `compact` is the reader's side panel: no header, one column of books.
import '../chat.css';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, ButtonLink } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import { DEFAULT_ASSISTANT_NAME, useMoods, useQuinnConversation } from '../queries';
import type { Mood } from '../types';
import { ChatInput } from './ChatInput';
import { MessageList } from './MessageList';
import { MoodPanel } from './MoodPanel';

/** A ready-made thing to say, offered as a chip. */
export interface ChatStarter {
  label: string;
  utterance: string;
}

/** Ways to narrow a result down that Quinn understands (its help text names them). */
export const REFINEMENTS: ChatStarter[] = [
  { label: 'Under $5', utterance: 'under $5' },
  { label: 'Shorter', utterance: 'shorter' },
  { label: 'Cheaper', utterance: 'cheaper' },
];

export interface ChatScreenProps {
  /** The reader's side panel: tighter, no header. */
  compact?: boolean;
  /** Where a book card leads. */
  bookHref?: (bookId: string) => string;
  /** Where the sign-in prompt leads. */
  loginHref: string;
  /** Chips offered from the start (e.g. "Books like this one" beside a book). */
  starters?: ChatStarter[];
  /** Put the cursor in the input on arrival (desktop; a phone would pop its keyboard up). */
  autoFocus?: boolean;
}

const desktopBookHref = (id: string) => `/book?book_id=${encodeURIComponent(id)}`;

export function ChatScreen(props: ChatScreenProps) {
  // A new visit (key) is a new conversation: fresh id, empty list.
  const [visit, setVisit] = useState(0);
  return <Conversation key={visit} {...props} onRestart={() => setVisit((v) => v + 1)} />;
}

function Conversation({ compact, bookHref = desktopBookHref, loginHref, starters = [], autoFocus, onRestart }: ChatScreenProps & { onRestart: () => void }) {
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const navigate = useNavigate();
  const moods = useMoods();
  const name = moods.data?.assistant_name || DEFAULT_ASSISTANT_NAME;
  const convo = useQuinnConversation(name);
  const [text, setText] = useState('');
  const input = useRef<HTMLTextAreaElement>(null);
  const scroller = useRef<HTMLDivElement>(null);

  // After a chip, the cursor goes back to the box for what comes next; not on a touch
  // screen, where that would pop the keyboard up over the answer.
  const say = (utterance: string) => {
    if (convo.send(utterance) === 'sent' && !window.matchMedia?.('(pointer: coarse)').matches) input.current?.focus();
  };
  const submit = () => {
    if (convo.send(text) === 'sent') setText('');
  };
  const pick = (m: Mood) => (loggedIn ? say(m.utterance || m.label) : navigate(loginHref));

  // Keep the newest line in view: the start of a line with books (so its first words show),
  // else the bottom (the "looking" line, a failure, a short reply).
  const last = convo.entries[convo.entries.length - 1];
  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const lines = box.querySelectorAll<HTMLElement>('.quinn-msg');
    const newest = lines[lines.length - 1];
    box.scrollTop = !convo.busy && last?.books?.length && newest ? newest.offsetTop - 12 : box.scrollHeight;
  }, [convo.entries.length, convo.busy, convo.failure, last]);

  useEffect(() => {
    if (autoFocus && loggedIn) input.current?.focus({ preventScroll: true });
  }, [autoFocus, loggedIn]);

  const hasResults = !convo.showMoods;
  const chips = [...starters, ...(hasResults ? REFINEMENTS : [])];

  return (
    <section className={`quinn ${compact ? 'quinn-compact' : 'quinn-page'}`} aria-label={`Chat with ${name}`} data-testid="chat">
      {compact ? null : (
        <header className="quinn-head">
          <span className="quinn-avatar quinn-avatar-lg" aria-hidden>
            <Icon name="sparkles" size={20} />
          </span>
          <div className="quinn-head-text">
            <h1 className="quinn-name">{name}</h1>
            <p className="muted small">
              Your book assistant<span className="quinn-head-more">: moods, genres, authors, books you loved</span>
            </p>
          </div>
          {convo.entries.length > 0 ? (
            <Button variant="ghost" size="sm" onClick={onRestart} icon={<Icon name="refresh" size={16} />}>
              New chat
            </Button>
          ) : null}
        </header>
      )}

      <div className="quinn-scroll" ref={scroller}>
        {convo.showMoods ? (
          <MoodPanel
            name={name}
            moods={moods.data?.moods}
            loading={moods.isLoading}
            failed={moods.isError}
            compact={compact}
            onPick={!loggedIn || !convo.busy ? pick : undefined}
          />
        ) : null}
        <MessageList name={name} entries={convo.entries} bookHref={bookHref} />
        <div className="quinn-status" role="status" aria-live="polite">
          {convo.busy ? (
            <div className="quinn-msg quinn-msg-bot quinn-pending" data-testid="chat-pending">
              <span className="quinn-avatar" aria-hidden>
                <Icon name="sparkles" size={14} />
              </span>
              <p className="quinn-bubble">
                <span className="quinn-dots" aria-hidden>
                  <span />
                  <span />
                  <span />
                </span>
                {name} is looking…
              </p>
            </div>
          ) : null}
        </div>
        {convo.failure ? (
          <div className="quinn-failure" role="alert" data-testid="chat-error">
            <Icon name="alert" size={18} />
            <p>{convo.failure.message}</p>
            <Button variant="secondary" size="sm" onClick={convo.retry} disabled={convo.busy}>
              Try again
            </Button>
          </div>
        ) : null}
      </div>

      {loggedIn ? (
        <div className="quinn-foot">
          {chips.length > 0 ? (
            <div className="quinn-chips" role="group" aria-label="Suggestions">
              {chips.map((c) => (
                <button key={c.label} type="button" className="quinn-chip" onClick={() => say(c.utterance)} disabled={convo.busy || !convo.ready}>
                  {c.label}
                </button>
              ))}
            </div>
          ) : null}
          <ChatInput name={name} value={text} onChange={setText} onSubmit={submit} busy={convo.busy} compact={compact} inputRef={input} />
        </div>
      ) : (
        <div className="quinn-signin" data-testid="chat-signin">
          <p>
            <strong>Log in to chat with {name}.</strong>{' '}
            <span className="muted">Tell {name} your mood and get books picked for you, with why each one fits.</span>
          </p>
          <ButtonLink to={loginHref} size="sm">
            Log in
          </ButtonLink>
        </div>
      )}
    </section>
  );
}
