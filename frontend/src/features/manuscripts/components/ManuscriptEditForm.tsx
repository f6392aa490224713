// The details of the book a manuscript became: title, authors, summaries and genre. The
// form starts from the book as the shop holds it, and from the analysis where the book has
// nothing yet; only what differs from the book is saved (authors comma-joined). The save
// itself is the route's (update_book is the catalog's).
import { useEffect, useId } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/Button';
import { TextField } from '@/components/TextField';
import { useForm } from '@/lib/use-form';
import { rules, type Schema } from '@/lib/validation';
import { toast } from '@/stores/toast';
import { formatScore, scoreOutOf100 } from '../format';
import { overallScore, qaScale } from '../read';
import type { Book, ManuscriptDetail, ManuscriptUpdate } from '../types';
import { GENRES } from '../upload';
import { pricePath } from './ManuscriptNav';

type Values = { title: string; authors: string; short_summary: string; long_summary: string; genre: string };

const LIMITS: Schema<keyof Values> = {
  title: [rules.required(), rules.maxLength(300)],
  authors: [rules.maxLength(1000)],
  short_summary: [rules.maxLength(2000)],
  long_summary: [rules.maxLength(20000)],
  genre: [rules.maxLength(100)],
};

/** "Ann Lee,  Bo Chen," -> ["Ann Lee", "Bo Chen"]. */
export function splitAuthors(raw: string): string[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function initialValues(book: Book | null, detail: ManuscriptDetail): Values {
  const a = detail.analyze_dict;
  return {
    title: book?.title || detail.title,
    authors: (book?.authors?.length ? book.authors : a.authors).join(', '),
    short_summary: book?.short_summary || a.short_summary,
    long_summary: book?.long_summary || a.long_summary,
    genre: book?.genre || a.genre,
  };
}

/** What differs from the book (everything filled when there is no book yet). */
export function changesOf(book: Book | null, detail: ManuscriptDetail, v: Values): ManuscriptUpdate {
  const out: ManuscriptUpdate = {};
  if (v.title.trim() !== (book?.title ?? '').trim()) out.title = v.title.trim();
  const authors = splitAuthors(v.authors);
  if (authors.join(',') !== (book?.authors ?? []).join(',')) out.authors = authors;
  if (v.short_summary.trim() !== (book?.short_summary ?? '').trim()) out.short_summary = v.short_summary.trim();
  if (v.long_summary.trim() !== (book?.long_summary ?? '').trim()) out.long_summary = v.long_summary.trim();
  if (v.genre.trim() !== (book?.genre ?? '').trim()) out.genre = v.genre.trim();
  const overall = overallScore(detail.qa);
  if (overall !== null) {
    const score = scoreOutOf100(overall, qaScale(detail.qa));
    if (score !== book?.assessment_score) out.assessment_score = score;
  }
  return out;
}

export interface ManuscriptEditFormProps {
  detail: ManuscriptDetail;
  book: Book | null;
  onSave: (update: ManuscriptUpdate) => void;
  saving?: boolean;
}

export function ManuscriptEditForm({ detail, book, onSave, saving }: ManuscriptEditFormProps) {
  const id = useId();
  const form = useForm<keyof Values>(initialValues(book, detail), LIMITS);
  const { values, setValues } = form;
  // The book arriving (or another manuscript) starts the form again; a refetch of the same
  // book must not wipe what the writer is typing.
  const bookId = book?.book_id ?? '';
  useEffect(() => setValues(initialValues(book, detail)), [bookId, detail.manuscript_id]);

  const submit = form.handleSubmit((v) => {
    const changes = changesOf(book, detail, v);
    if (Object.keys(changes).length === 0) toast.info('Nothing changed');
    else onSave(changes);
  });

  const genres = values.genre && !(GENRES as readonly string[]).includes(values.genre) ? [values.genre, ...GENRES] : GENRES;
  const overall = formatScore(overallScore(detail.qa), qaScale(detail.qa));

  return (
    <form className="form" onSubmit={submit} aria-label="Edit manuscript" noValidate>
      <TextField label="Title" maxLength={300} {...form.field('title')} />
      <div className="ms-form-row">
        <TextField label="Authors" hint="Separate authors with commas" {...form.field('authors')} />
        <div className="field">
          <label htmlFor={`${id}-genre`} className="field-label">
            Genre
          </label>
          <select id={`${id}-genre`} className="ms-select" name="genre" value={values.genre} onChange={(e) => form.setValue('genre', e.target.value)}>
            <option value="">No genre</option>
            {genres.map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </select>
          {detail.analyze_dict.genre ? <p className="field-hint">The analysis read it as {detail.analyze_dict.genre}.</p> : null}
        </div>
      </div>
      <TextField label="Short summary" multiline rows={3} {...form.field('short_summary')} />
      <TextField label="Long summary" multiline rows={8} {...form.field('long_summary')} />
      <div className="ms-form-facts small">
        <span>
          Assessment score: <strong>{overall ? `${overall.value} / ${overall.max}` : '—'}</strong>
          <span className="muted"> (the analysis' overall score, saved with the book)</span>
        </span>
        <span>
          Price: <Link to={pricePath(detail.manuscript_id, detail.book_id)}>set it with AI pricing</Link>
        </span>
      </div>
      <div className="form-actions">
        <Button type="submit" loading={saving} data-testid="edit-save">
          Save details
        </Button>
      </div>
    </form>
  );
}
