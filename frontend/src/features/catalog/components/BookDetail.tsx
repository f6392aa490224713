import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Badge, Card, CardHeader, EmptyState } from '@/components/Card';
import { Button, ButtonLink } from '@/components/Button';
import { ApiError } from '@/lib/api-client';
import { useTitle } from '@/lib/use-title';
import { RatingStars, StarPicker } from '@/components/Rating';
import { useRateBook } from '@/lib/ratings';
import { bookDate, formatBytes, formatScore } from '../format';
import { useBook, useBookList, usePublishStatus } from '../hooks';
import { useCatalogLinks } from '../links';
import { useViewer } from '../session';
import type { Book } from '../types';
import { BookEditForm } from './BookEditForm';
import { BookSection } from './BookSection';
import { Cover } from './Cover';
import { FavouriteButton } from './FavouriteButton';
import { PriceTag } from './PriceTag';
import { PublishSwitch } from './PublishSwitch';
import { LineSkeletons } from './Skeleton';
import { TocList } from './TocList';

export interface BookDetailProps {
  bookId: string | null;
  /** "h5": the phone layout (one column, sticky action bar). */
  variant?: 'desktop' | 'h5';
  /** The comments panel (its own feature), rendered under the chapters. */
  comments?: ReactNode;
  /**
   * The buy control (the wallet's, composed by the route) for a book the viewer may not read
   * whole yet; without it the page offers the free sample only.
   */
  buy?: (book: Book) => ReactNode;
  /**
   * The book's crowd-funding (the pricing feature's, composed by the route): its open
   * campaign with the pledge box, or nothing.
   */
  campaign?: (book: Book) => ReactNode;
}

function DetailSkeleton() {
  return (
    <div className="book-detail" aria-busy="true">
      <span className="visually-hidden" role="status">
        Loading the book
      </span>
      <div className="book-hero">
        <div className="skeleton skeleton-cover book-hero-cover" />
        <div className="book-hero-body">
          <LineSkeletons count={5} />
        </div>
      </div>
    </div>
  );
}

/** A reader who owns the book rates it (and may change the rating). */
export function RateThisBook({ book }: { book: Book }) {
  const bookId = String(book.book_id ?? book.id);
  const rate = useRateBook(bookId);
  const mine = rate.isPending ? rate.variables : (book.my_rating ?? 0);
  return (
    <Card className="rate-book" data-testid="rate-book">
      <CardHeader
        title={book.my_rating ? 'Your rating' : 'Rate this book'}
        subtitle={book.my_rating ? 'Pick other stars to change it.' : 'You own it: tell other readers what you think.'}
      />
      <StarPicker value={mine} onChange={(stars) => rate.mutate(stars)} disabled={rate.isPending} />
      {rate.isError ? (
        <p className="field-error" role="alert">
          {rate.error instanceof Error ? rate.error.message : 'The rating was not saved'}
        </p>
      ) : null}
    </Card>
  );
}

function WriterPanel({ book, uid }: { book: Book; uid: string }) {
  const [editing, setEditing] = useState(false);
  // The analysis's score is the writer's own: the server sends it to the writer and admins.
  const quality = formatScore(book.assessment_score);
  const status = usePublishStatus(uid);
  const bookId = String(book.book_id ?? book.id);
  return (
    <Card className="writer-panel" data-testid="writer-panel">
      <CardHeader
        title="Your book"
        subtitle={
          book.taken_down
            ? 'An administrator took this book down; it is hidden from the shop whatever the switch says.'
            : book.on
              ? 'Listed: readers can find, sample and buy it.'
              : 'Unlisted: only you, its publisher and administrators can see it.'
        }
        actions={
          <div className="badge-row">
            {book.taken_down ? <Badge tone="warning">Taken down</Badge> : null}
            <Badge tone={book.listed ? 'success' : 'neutral'}>{book.listed ? 'In the shop' : 'Not in the shop'}</Badge>
          </div>
        }
      />
      {quality ? (
        <p className="muted small" data-testid="writer-quality">
          Quality score from the analysis: {quality.value} / {quality.max} (only you see it; readers see their own ratings).
        </p>
      ) : null}
      <div className="writer-panel-row">
        <PublishSwitch
          checked={status.isPending ? status.variables.on : Boolean(book.on)}
          busy={status.isPending}
          onChange={(on) => status.mutate({ bookId, on })}
          label={book.on ? 'Published (on)' : 'Not published (off)'}
        />
        <Button variant={editing ? 'ghost' : 'secondary'} size="sm" onClick={() => setEditing((v) => !v)} aria-expanded={editing}>
          {editing ? 'Close the editor' : 'Edit details'}
        </Button>
      </div>
      {editing ? <BookEditForm book={book} uid={uid} onSaved={() => setEditing(false)} /> : null}
    </Card>
  );
}

/** Other books of the same genre, best rated first, to keep browsing. */
function MoreInGenre({ genre, exclude }: { genre: string; exclude: string }) {
  const links = useCatalogLinks();
  const list = useBookList({ genre, sort: 'rating', page: 1, page_size: 9 });
  const books = list.data?.result.filter((b) => String(b.book_id ?? b.id) !== exclude).slice(0, 8);
  if (!list.isLoading && (!books || books.length === 0)) return null;
  return <BookSection title={`More in ${genre}`} books={books} loading={list.isLoading} seeAllTo={links.genre(genre)} />;
}

/** The book page: cover and facts, read and buy, the writer's controls, chapters, comments. */
export function BookDetail({ bookId, variant = 'desktop', comments, buy, campaign }: BookDetailProps) {
  const viewer = useViewer();
  const links = useCatalogLinks();
  const query = useBook(bookId);
  const book = query.data ?? null;
  useTitle(book?.title ?? 'Book');

  if (!bookId) {
    return (
      <EmptyState icon="book" title="Which book would you like to see?">
        <p>Pick one in the shop or search for it.</p>
        <ButtonLink to="/" variant="secondary" size="sm">
          Browse the shop
        </ButtonLink>
      </EmptyState>
    );
  }
  if (query.isLoading) return <DetailSkeleton />;
  const notFound = (!query.isError && !book) || (query.error instanceof ApiError && query.error.status === 404);
  if (notFound) {
    return (
      <EmptyState icon="book" title="This book is not in the shop">
        <p>It may have been unpublished, or the link is mistyped.</p>
        <ButtonLink to="/" variant="secondary" size="sm">
          Browse the shop
        </ButtonLink>
      </EmptyState>
    );
  }
  if (!book) {
    return (
      <EmptyState icon="alert" title="The book could not be loaded">
        <p>{query.error instanceof Error ? query.error.message : 'Please try again.'}</p>
        <Button variant="secondary" size="sm" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </EmptyState>
    );
  }

  const id = String(book.book_id ?? book.id);
  const isWriter = Boolean(viewer.userId && book.upload_writer_id && String(book.upload_writer_id) === viewer.userId);
  const authors = book.authors?.length ? book.authors.join(', ') : book.author;
  const facts = [
    book.format ? book.format.toUpperCase() : '',
    book.chapter_count ? `${book.chapter_count} ${book.chapter_count === 1 ? 'chapter' : 'chapters'}` : '',
    formatBytes(book.file_size),
    book.language ?? '',
    bookDate(book) ? `Published ${bookDate(book)}` : '',
  ].filter(Boolean);

  const actions = (
    <div className="book-actions">
      {book.entitled ? (
        <>
          <ButtonLink to={links.read(id)} size="lg" data-testid="read-button">
            Read
          </ButtonLink>
          {book.bought ? (
            <span className="badge badge-success book-owned" data-testid="owned-badge">
              You own this book
            </span>
          ) : null}
        </>
      ) : (
        <>
          {buy ? buy(book) : null}
          <ButtonLink to={links.read(id)} size="lg" variant="secondary" data-testid="read-button">
            Read free sample
          </ButtonLink>
        </>
      )}
      <FavouriteButton bookId={id} favourite={Boolean(book.favourite)} loggedIn={viewer.loggedIn} title={book.title} />
    </div>
  );

  return (
    <article className={`book-detail book-detail-${variant}`} data-testid="book-detail">
      <div className="book-hero">
        <Cover src={book.cover_image} title={book.title} author={book.author} className="book-hero-cover" />
        <div className="book-hero-body">
          {book.genre ? (
            <Link to={links.genre(book.genre)} className="eyebrow book-genre">
              {book.genre}
            </Link>
          ) : null}
          <h1 className="book-title">{book.title}</h1>
          <p className="book-author">by {authors || 'an unknown author'}</p>
          <div className="book-stats">
            <PriceTag price={book.price} owned={book.bought} size="lg" />
            <RatingStars rating={book.rating} size="lg" />
            {book.comment_count ? (
              <a href="#comments-title" className="muted small">
                {book.comment_count} {book.comment_count === 1 ? 'comment' : 'comments'}
              </a>
            ) : null}
          </div>
          {book.short_summary ? <p className="book-lead">{book.short_summary}</p> : null}
          {book.tags?.length ? (
            <ul className="tag-list" aria-label="Tags">
              {book.tags.map((t) => (
                <li key={t}>
                  <Link to={links.search(t)} className="tag">
                    #{t}
                  </Link>
                </li>
              ))}
            </ul>
          ) : null}
          {facts.length ? <p className="muted small book-facts">{facts.join(' · ')}</p> : null}
          {variant === 'desktop' ? actions : null}
        </div>
      </div>
      {variant === 'h5' ? <div className="book-actions-bar">{actions}</div> : null}

      {campaign ? campaign(book) : null}

      {isWriter && viewer.userId ? <WriterPanel book={book} uid={viewer.userId} /> : null}

      {book.bought && !isWriter ? <RateThisBook book={book} /> : null}

      <div className="book-columns">
        <section className="book-about" aria-labelledby="about-title">
          <h2 id="about-title">About this book</h2>
          {book.long_summary ? (
            <div className="book-long">
              {book.long_summary.split(/\n{2,}/).map((p, i) => (
                <p key={i}>{p}</p>
              ))}
            </div>
          ) : (
            <p className="muted">{book.short_summary || 'The writer has not written a summary yet.'}</p>
          )}
        </section>
        <section className="book-chapters" aria-labelledby="chapters-title">
          <h2 id="chapters-title">Chapters</h2>
          <TocList bookId={id} entitled={Boolean(book.entitled)} />
        </section>
      </div>

      {book.genre ? <MoreInGenre genre={book.genre} exclude={id} /> : null}

      {comments ? (
        <section className="book-comments" aria-labelledby="comments-title">
          <h2 id="comments-title">Reader comments</h2>
          {comments}
        </section>
      ) : null}
    </article>
  );
}
