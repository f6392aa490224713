import type { ReactNode } from 'react';
import { ButtonLink } from '@/components/Button';
import { Card, CardHeader, PageHeader } from '@/components/Card';
import type { ManuscriptSummary } from '../types';
import { ManuscriptList } from './ManuscriptList';

const STEPS = [
  { title: 'Upload', text: 'Your files, in reading order.' },
  { title: 'Read the analysis', text: 'Summaries, scores, AI check.' },
  { title: 'Edit details and tags', text: 'Fix what the analysis got wrong.' },
  { title: 'Set a price', text: 'AI pricing suggests one.' },
  { title: 'Publish', text: 'Switch it on to list it in the shop.' },
];

export interface WriterHomeProps {
  title: string;
  eyebrow?: string;
  /** The publish switch of one manuscript's book (from the route). */
  publish?: (m: ManuscriptSummary) => ReactNode;
  /** Whether a manuscript's book is in the shop now (see ManuscriptList). */
  publishedOf?: (m: ManuscriptSummary) => boolean | undefined;
  /** The writer's books in the shop (the catalog's, from the route). */
  books?: ReactNode;
}

/** The writer's desk: the way to upload, the latest manuscripts and the books they became. */
export function WriterHome({ title, eyebrow = 'Writer studio', publish, publishedOf, books }: WriterHomeProps) {
  return (
    <div className="page ms-home">
      <PageHeader
        eyebrow={eyebrow}
        title={title}
        subtitle="Upload a manuscript, read what the analysis finds, then edit, price and publish it."
        actions={
          <>
            <ButtonLink to="/manuscript" variant="secondary">
              All manuscripts
            </ButtonLink>
            <ButtonLink to="/manuscript/upload" data-testid="writer-upload">
              Upload a manuscript
            </ButtonLink>
          </>
        }
      />
      <ol className="ms-steps" aria-label="From manuscript to book">
        {STEPS.map((s, i) => (
          <li key={s.title} className="ms-step">
            <span className="ms-step-n" aria-hidden>
              {i + 1}
            </span>
            <span>
              <strong>{s.title}</strong>
              <span className="muted small">{s.text}</span>
            </span>
          </li>
        ))}
      </ol>
      <Card>
        <CardHeader title="Recent manuscripts" subtitle="The latest first; open one to see its analysis." />
        <ManuscriptList publish={publish} publishedOf={publishedOf} pageSize={5} preview />
      </Card>
      {books ? (
        <section className="ms-books" aria-labelledby="writer-books-title">
          <div className="ms-books-head">
            <h2 id="writer-books-title">Your books in the shop</h2>
            <p className="muted small">Every book your manuscripts became; switch one on to list it, off to take it out.</p>
          </div>
          {books}
        </section>
      ) : null}
    </div>
  );
}
