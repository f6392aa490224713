// What the reader types to Quinn: a growing text box with a live counter. Enter sends,
// Shift+Enter starts a new line. Over 500 characters the warning shows and nothing is sent.
import { useId, useRef, type FormEvent, type KeyboardEvent, type RefObject } from 'react';
import { Icon } from '@/components/Icon';
import { CHAT_INPUT_MAX, chatInputLength, INPUT_TOO_LONG } from '../input-rule';

export interface ChatInputProps {
  name: string;
  value: string;
  onChange: (value: string) => void;
  /** Called on Enter or the send button; the owner decides whether it goes out. */
  onSubmit: () => void;
  busy: boolean;
  compact?: boolean;
  inputRef?: RefObject<HTMLTextAreaElement>;
}

export function ChatInput({ name, value, onChange, onSubmit, busy, compact, inputRef }: ChatInputProps) {
  const id = useId();
  const own = useRef<HTMLTextAreaElement>(null);
  const box = inputRef ?? own;
  const count = chatInputLength(value);
  const over = count > CHAT_INPUT_MAX;
  const empty = value.trim() === '';

  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    onSubmit();
  };

  return (
    <form className={`quinn-form ${compact ? 'quinn-form-compact' : ''}`} onSubmit={submit} aria-label={`Message ${name}`} noValidate>
      <label className="quinn-sr-only" htmlFor={`${id}-input`}>
        Message {name}
      </label>
      <div className={`quinn-input-wrap ${over ? 'quinn-input-over' : ''}`}>
        <textarea
          id={`${id}-input`}
          ref={box}
          className="quinn-input"
          value={value}
          rows={compact ? 1 : 2}
          placeholder={`Tell ${name} what you feel like reading…`}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={onKeyDown}
          aria-invalid={over || undefined}
          aria-describedby={`${id}-count ${id}-hint${over ? ` ${id}-warning` : ''}`}
          data-testid="chat-input"
        />
        <button
          type="submit"
          className="quinn-send"
          aria-label="Send"
          disabled={busy || empty || over}
          data-testid="chat-send"
        >
          {busy ? <span className="spinner quinn-send-spinner" aria-hidden /> : <Icon name="send" size={18} />}
        </button>
      </div>
      <div className="quinn-form-foot">
        <span id={`${id}-hint`} className="muted small quinn-hint">
          Enter to send · Shift+Enter for a new line
        </span>
        <span id={`${id}-count`} className={`small quinn-count ${over ? 'quinn-count-over' : 'muted'}`} data-testid="chat-count">
          {count}/{CHAT_INPUT_MAX}
        </span>
      </div>
      {over ? (
        <p id={`${id}-warning`} className="quinn-warning" role="alert" data-testid="chat-warning">
          <Icon name="alert" size={16} /> {INPUT_TOO_LONG}
        </p>
      ) : null}
    </form>
  );
}
