// The screens of one manuscript (?id=): the manuscript from the manuscripts feature and
// the book it became from the catalog, loaded once for analysis, details and tags.
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PageLoader } from '@/components/Spinner';
import { useBook, type Book } from '@/features/catalog';
import { ManuscriptMissing, useManuscript, type ManuscriptDetail } from '@/features/manuscripts';
import { WriterOnly } from './writer-only';

export interface ManuscriptContext {
  detail: ManuscriptDetail;
  /** The book as the shop holds it; null when it could not be read. */
  book: Book | null;
  bookLoading: boolean;
  userId: string;
}

function Loaded({ id, userId, children }: { id: string | null; userId: string; children: (ctx: ManuscriptContext) => ReactNode }) {
  const manuscript = useManuscript(id);
  const book = useBook(manuscript.data?.book_id || null);
  if (!id) return <ManuscriptMissing />;
  if (manuscript.isLoading) return <PageLoader label="Loading the manuscript…" />;
  if (!manuscript.data) {
    const error = manuscript.error;
    return <ManuscriptMissing reason={error instanceof Error && error.message ? error.message : 'It may have been removed.'} />;
  }
  return <>{children({ detail: manuscript.data, book: book.data ?? null, bookLoading: book.isLoading, userId })}</>;
}

export function WithManuscript({ children }: { children: (ctx: ManuscriptContext) => ReactNode }) {
  const [params] = useSearchParams();
  const id = params.get('id')?.trim() || null;
  return (
    <WriterOnly>
      {({ userId }) => (
        <Loaded id={id} userId={userId}>
          {children}
        </Loaded>
      )}
    </WriterOnly>
  );
}
