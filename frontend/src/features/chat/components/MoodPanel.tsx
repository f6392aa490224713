// The opening panel: Quinn says hello and offers the moods it understands (the table comes
// from GET /api/chat/moods, so a mood picked here is one Quinn knows). Picking one says its
// words to Quinn, as if typed.
import { useId } from 'react';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import type { Mood } from '../types';

export interface MoodPanelProps {
  name: string;
  moods: Mood[] | undefined;
  loading: boolean;
  failed: boolean;
  compact?: boolean;
  /** Undefined: the moods show but cannot be picked (nobody signed in, or Quinn is busy). */
  onPick?: (mood: Mood) => void;
}

export function MoodPanel({ name, moods, loading, failed, compact, onPick }: MoodPanelProps) {
  const list = moods ?? [];
  const titleId = useId();
  return (
    <section className={`quinn-moods ${compact ? 'quinn-moods-compact' : ''}`} aria-labelledby={titleId} data-testid="mood-panel">
      <div className="quinn-moods-head">
        <span className="quinn-avatar quinn-avatar-lg" aria-hidden>
          <Icon name="sparkles" size={compact ? 18 : 22} />
        </span>
        <div>
          <h2 id={titleId} className="quinn-moods-title">
            Hi, I&rsquo;m {name}. What are you in the mood for?
          </h2>
          <p className="muted small">
            Pick a mood, or tell me a genre, an author, a book you loved, or a limit like &ldquo;under $5&rdquo;.
          </p>
        </div>
      </div>
      {loading ? (
        <Spinner label="Loading moods" />
      ) : failed && list.length === 0 ? (
        <p className="muted small">The moods could not be loaded; just type what you feel like reading.</p>
      ) : (
        <ul className="quinn-mood-list" aria-label="Moods">
          {list.map((m) => (
            <li key={m.id}>
              <button
                type="button"
                className="quinn-mood"
                onClick={onPick ? () => onPick(m) : undefined}
                disabled={!onPick}
                title={m.genres.length ? m.genres.join(', ') : undefined}
                data-mood={m.id}
              >
                {m.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
