import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/Button';
import { TextField } from '@/components/TextField';
import { validateField, rules } from '@/lib/validation';
import { toast } from '@/stores/toast';
import { joinList, parsePrice, splitList } from '../format';
import { useUpdateBook } from '../hooks';
import type { Book, BookUpdate } from '../types';
import { Cover } from './Cover';

const MAX_COVER_BYTES = 5 * 1024 * 1024;
const COVER_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'];

type Values = { title: string; short_summary: string; long_summary: string; tags: string; genre: string; price: string };

function valuesOf(book: Book): Values {
  return {
    title: book.title ?? '',
    short_summary: book.short_summary ?? '',
    long_summary: book.long_summary ?? '',
    tags: joinList(book.tags ?? []).replace(/,/g, ', '),
    genre: book.genre ?? '',
    price: book.price === undefined || book.price === null ? '' : String(book.price),
  };
}

const LIMITS = {
  title: [rules.required(), rules.maxLength(300)],
  short_summary: [rules.maxLength(1000)],
  long_summary: [rules.maxLength(20000)],
  tags: [rules.maxLength(1000)],
  genre: [rules.maxLength(100)],
};

/** Only what changed goes to update_book (tags comma-joined, price as a decimal, the cover as a file). */
export function changesOf(book: Book, v: Values, cover: File | null): BookUpdate {
  const before = valuesOf(book);
  const out: BookUpdate = {};
  if (v.title.trim() !== before.title.trim()) out.title = v.title.trim();
  if (v.short_summary !== before.short_summary) out.short_summary = v.short_summary.trim();
  if (v.long_summary !== before.long_summary) out.long_summary = v.long_summary.trim();
  const tags = splitList(v.tags);
  if (joinList(tags) !== joinList(book.tags ?? [])) out.tags = tags;
  if (v.genre.trim() !== before.genre.trim()) out.genre = v.genre.trim();
  const price = parsePrice(v.price);
  if ('value' in price && price.value !== book.price) out.price = price.value;
  if (cover) out.cover = cover;
  return out;
}

export interface BookEditFormProps {
  book: Book;
  /** The writer's user_id (update_book's uid). */
  uid: string;
  onSaved?: () => void;
}

/** The writer's edit form of a book: texts, tags, genre, price and a new cover. */
export function BookEditForm({ book, uid, onSaved }: BookEditFormProps) {
  const id = useId();
  const bookId = String(book.book_id ?? book.id);
  const [values, setValues] = useState<Values>(() => valuesOf(book));
  const [errors, setErrors] = useState<Partial<Record<keyof Values | 'cover', string>>>({});
  const [cover, setCover] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const update = useUpdateBook(uid, bookId);

  // A background refetch of the book must not wipe what the writer is typing; another
  // book (same form reused) starts from its own values.
  useEffect(() => setValues(valuesOf(book)), [bookId]);
  useEffect(() => {
    if (!cover || typeof URL.createObjectURL !== 'function') return setPreview(null);
    const url = URL.createObjectURL(cover);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [cover]);

  const field = (key: keyof Values) => ({
    name: key,
    value: values[key],
    error: errors[key],
    onChange: (e: { target: { value: string } }) => {
      setValues((v) => ({ ...v, [key]: e.target.value }));
      setErrors((er) => ({ ...er, [key]: undefined }));
    },
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const found: typeof errors = {};
    for (const key of Object.keys(LIMITS) as Array<keyof typeof LIMITS>) {
      const message = validateField(values[key], LIMITS[key]);
      if (message) found[key] = message;
    }
    const price = parsePrice(values.price);
    if ('error' in price) found.price = price.error;
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    const changes = changesOf(book, values, cover);
    if (Object.keys(changes).length === 0) {
      toast.info('Nothing changed');
      return;
    }
    update.mutate(changes, {
      onSuccess: () => {
        setCover(null);
        onSaved?.();
      },
    });
  };

  return (
    <form className="form book-edit" onSubmit={onSubmit} noValidate aria-label="Edit book">
      <div className="book-edit-grid">
        <div className="book-edit-cover">
          <Cover src={preview ?? book.cover_image} title={values.title || book.title} width={140} />
          <label htmlFor={`${id}-cover`} className="btn btn-secondary btn-sm file-button">
            Choose a cover
          </label>
          <input
            id={`${id}-cover`}
            type="file"
            accept={COVER_TYPES.join(',')}
            className="visually-hidden"
            onChange={(e) => {
              const file = e.target.files?.[0] ?? null;
              if (file && file.size > MAX_COVER_BYTES) {
                setErrors((er) => ({ ...er, cover: 'The cover must be at most 5 MB' }));
                return;
              }
              if (file && file.type && !COVER_TYPES.includes(file.type)) {
                setErrors((er) => ({ ...er, cover: 'Must be one of: png, jpeg, webp, svg' }));
                return;
              }
              setErrors((er) => ({ ...er, cover: undefined }));
              setCover(file);
            }}
          />
          {cover ? <p className="muted small">{cover.name}</p> : null}
          {errors.cover ? (
            <p className="field-error" role="alert">
              {errors.cover}
            </p>
          ) : null}
        </div>
        <div className="stack">
          <TextField label="Title" maxLength={300} {...field('title')} />
          <div className="form-grid">
            <TextField label="Genre" maxLength={100} {...field('genre')} />
            <TextField label="Price" inputMode="decimal" hint="0 makes the book free" {...field('price')} />
          </div>
          <TextField label="Tags" hint="Separate tags with commas" {...field('tags')} />
        </div>
      </div>
      <TextField label="Short summary" multiline rows={3} {...field('short_summary')} />
      <TextField label="Long summary" multiline rows={7} {...field('long_summary')} />
      <div className="form-actions">
        <Button type="submit" loading={update.isPending}>
          Save changes
        </Button>
      </div>
    </form>
  );
}
