// The book's tags as chips: added by typing (Enter or a comma ends a tag), removed one by
// one, suggested from the analysis. Saved as one list; the wire joins it with commas.
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { toast } from '@/stores/toast';

export const TAG_MAX = 50;
/** update_book takes at most 1000 characters of comma-joined tags. */
export const TAGS_TOTAL_MAX = 1000;

const key = (t: string) => t.trim().toLowerCase();

/** Adds the comma-separated tags of `raw`, skipping blanks and ones already there. */
export function withTags(tags: readonly string[], raw: string): { tags: string[]; error: string | null } {
  const out = [...tags];
  for (const part of raw.split(',')) {
    const t = part.trim().replace(/\s+/g, ' ');
    if (!t) continue;
    if (t.length > TAG_MAX) return { tags: [...tags], error: `Must be at most ${TAG_MAX} characters` };
    if (!out.some((x) => key(x) === key(t))) out.push(t);
  }
  if (out.join(',').length > TAGS_TOTAL_MAX) return { tags: [...tags], error: `Must be at most ${TAGS_TOTAL_MAX} characters` };
  return { tags: out, error: null };
}

export interface TagEditorProps {
  initial: string[];
  /** The analysis' tags, offered when not in the list. */
  suggested: string[];
  onSave: (tags: string[]) => void;
  saving?: boolean;
}

export function TagEditor({ initial, suggested, onSave, saving }: TagEditorProps) {
  const id = useId();
  const [tags, setTags] = useState<string[]>(initial);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const initialKey = initial.join(',');
  useEffect(() => setTags(initial), [initialKey]);

  const add = (raw: string) => {
    const next = withTags(tags, raw);
    setError(next.error);
    if (!next.error) {
      setTags(next.tags);
      setDraft('');
    }
  };
  const remove = (t: string) => setTags(tags.filter((x) => x !== t));
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' || e.key === ',') {
      e.preventDefault();
      add(draft);
    } else if (e.key === 'Backspace' && draft === '' && tags.length > 0) {
      remove(tags[tags.length - 1]);
    }
  };
  const save = () => {
    const pending = withTags(tags, draft);
    if (pending.error) return setError(pending.error);
    setDraft('');
    setTags(pending.tags);
    if (pending.tags.join(',') === initialKey) {
      toast.info('Nothing changed');
      return;
    }
    onSave(pending.tags);
  };
  const offers = suggested.filter((s) => !tags.some((t) => key(t) === key(s)));

  return (
    <div className="stack" data-testid="tag-editor">
      <div className="field">
        <label htmlFor={`${id}-input`} className="field-label">
          Tags
        </label>
        <div className={`ms-tag-box ${error ? 'ms-tag-box-invalid' : ''}`}>
          <ul className="ms-chips" aria-label="Current tags">
            {tags.map((t) => (
              <li key={t} className="ms-chip ms-chip-removable" data-testid="tag-chip">
                <span>{t}</span>
                <button type="button" className="ms-chip-x" aria-label={`Remove tag ${t}`} onClick={() => remove(t)}>
                  <Icon name="close" size={12} />
                </button>
              </li>
            ))}
          </ul>
          <input
            id={`${id}-input`}
            className="ms-tag-input"
            value={draft}
            placeholder={tags.length ? 'Add another tag' : 'Add a tag'}
            aria-invalid={Boolean(error)}
            aria-describedby={`${id}-hint`}
            onChange={(e) => {
              setDraft(e.target.value);
              setError(null);
            }}
            onKeyDown={onKeyDown}
          />
          <Button variant="secondary" size="sm" onClick={() => add(draft)} disabled={!draft.trim()}>
            Add
          </Button>
        </div>
        {error ? (
          <p id={`${id}-hint`} className="field-error" role="alert">
            {error}
          </p>
        ) : (
          <p id={`${id}-hint`} className="field-hint">
            Press Enter or type a comma to add a tag. Readers find books by their tags.
          </p>
        )}
      </div>
      {offers.length > 0 ? (
        <div>
          <p className="ms-label">Suggested by the analysis</p>
          <ul className="ms-chips" aria-label="Suggested tags">
            {offers.map((s) => (
              <li key={s}>
                <button type="button" className="ms-chip ms-chip-offer" onClick={() => add(s)} aria-label={`Add tag ${s}`}>
                  + {s}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="form-actions">
        <Button onClick={save} loading={saving} data-testid="tags-save">
          Save tags
        </Button>
      </div>
    </div>
  );
}
