// The book view: toolbar, the book (epub, pdf or txt viewer), progress and page turns,
// and the left part with the open panel (chat, comments, explore, bookmarks, settings),
// visible whenever one of them is open. On a phone the left part is a bottom sheet.
import '../reader.css';
import '../panels.css';
import '../reading-list.css';
import '../book-end.css';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button, ButtonLink } from '@/components/Button';
import { Icon, type IconName } from '@/components/Icon';
import { PageLoader } from '@/components/Spinner';
import { ApiError } from '@/lib/api-client';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import { isLeftPartVisible, useReaderSettings, type ReaderPanel } from '@/stores/reader-settings';
import { saveProgress } from '../api';
import { useFullscreen } from '../fullscreen';
import { pageStyles } from '../page-style';
import { createProgressSaver, pickStartPosition, readLocalProgress, writeLocalProgress } from '../progress';
import { useBook, useBookContent, useServerProgress, useToc } from '../queries';
import type { Book, BookFormat, ReadingLocation, TocEntry } from '../types';
import { BookEnd } from './BookEnd';
import { BookmarksPanel } from './BookmarksPanel';
import { ChatPanel } from './ChatPanel';
import { ExplorePanel } from './ExplorePanel';
import { ReaderFooter } from './ReaderFooter';
import { ReaderProblem } from './ReaderProblem';
import { SettingsPanel } from './SettingsPanel';
import { TocMenu } from './TocMenu';
import { TrialEnd } from './TrialEnd';
import type { EndReason, ViewerHandle, ViewerProps } from './viewer';

// The viewers pull in epub.js and pdf.js; each loads only when a book of its kind opens.
const VIEWERS: Record<BookFormat, React.LazyExoticComponent<React.ForwardRefExoticComponent<ViewerProps & React.RefAttributes<ViewerHandle>>>> = {
  epub: lazy(() => import('./EpubViewer')),
  pdf: lazy(() => import('./PdfViewer')),
  txt: lazy(() => import('./TxtViewer')),
};

const PANELS: { id: ReaderPanel; label: string; icon: IconName }[] = [
  { id: 'chat', label: 'Chat', icon: 'chat' },
  { id: 'comments', label: 'Comments', icon: 'users' },
  { id: 'explore', label: 'Explore', icon: 'compass' },
  { id: 'bookmarks', label: 'Bookmarks', icon: 'tag' },
  { id: 'settings', label: 'Settings', icon: 'settings' },
];

function formatOf(contentType: string, fallback?: BookFormat): BookFormat {
  if (contentType.includes('epub')) return 'epub';
  if (contentType.includes('pdf')) return 'pdf';
  if (contentType.startsWith('text/')) return 'txt';
  return fallback ?? 'txt';
}

export interface ReaderViewProps {
  bookId: string;
  commentsPanel: ReactNode;
  /** The compact chat with Quinn for this book (the chat feature's, composed by the route). */
  chatPanel: (book: Book) => ReactNode;
  /** The buy control (the wallet's, composed by the route) shown at the end of a sample. */
  buy?: (book: Book) => ReactNode;
}

export function ReaderView({ bookId, commentsPanel, chatPanel, buy }: ReaderViewProps) {
  const book = useBook(bookId);
  const toc = useToc(bookId);
  const content = useBookContent(bookId);
  const progress = useServerProgress(bookId);
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const settings = useReaderSettings();
  const viewer = useRef<ViewerHandle>(null);
  const [location, setLocation] = useState<ReadingLocation | null>(null);
  const [sampleEnded, setSampleEnded] = useState(false);
  const [bookEnded, setBookEnded] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const fullscreen = useFullscreen(root);
  const styles = useMemo(() => pageStyles(settings.styles, settings.theme, settings.appearance), [settings.styles, settings.theme, settings.appearance]);
  const [tocOpen, setTocOpen] = useState(false);
  const [viewerError, setViewerError] = useState<string | null>(null);
  const startAt = useRef<string | null | undefined>(undefined);

  const access = content.data?.access ?? 'trial';
  const entries: TocEntry[] = toc.data ?? [];
  // A purchase swaps the sample for the whole file: the notice goes, and the new file opens
  // where the reader is (the viewer is keyed by access, so it starts afresh).
  const seenAccess = useRef(content.data?.access);
  if (content.data && seenAccess.current !== content.data.access) {
    if (seenAccess.current !== undefined && location) startAt.current = location.position;
    seenAccess.current = content.data.access;
  }
  useEffect(() => {
    if (access === 'full') setSampleEnded(false);
  }, [access]);

  // Where to open is decided once, when the file and the saved progress are in.
  const progressSettled = !loggedIn || !progress.isLoading;
  if (startAt.current === undefined && content.data && progressSettled) {
    startAt.current = pickStartPosition(progress.data && typeof progress.data === 'object' ? progress.data : null, readLocalProgress(bookId));
  }

  const saver = useMemo(
    () => createProgressSaver((loc) => (useAuthStore.getState().accessToken ? saveProgress(bookId, loc) : undefined)),
    [bookId],
  );
  useEffect(() => {
    const flush = () => saver.flush();
    const onHide = () => document.visibilityState === 'hidden' && saver.flush();
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', onHide);
    return () => {
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', onHide);
      saver.flush();
    };
  }, [saver]);

  const onLocation = useCallback(
    (loc: ReadingLocation) => {
      setLocation(loc);
      writeLocalProgress(bookId, loc);
      saver.update(loc);
    },
    [bookId, saver],
  );
  // The notice answers the reader reaching the end, not a short sample that happens to
  // fit on the first screen: nothing shows until they have turned, scrolled or jumped.
  // The whole book's end page comes only when they ask for a page after the last one, so the
  // last page can be read first.
  const moved = useRef(false);
  const onEnd = useCallback(
    (how: EndReason) => {
      if (content.data?.access === 'trial') {
        if (moved.current) setSampleEnded(true);
      } else if (how === 'next') setBookEnded(true);
    },
    [content.data?.access],
  );
  const next = useCallback(() => {
    moved.current = true;
    viewer.current?.next();
  }, []);
  const prev = useCallback(() => {
    moved.current = true;
    setBookEnded(false);
    viewer.current?.prev();
  }, []);

  const turn = useCallback(
    (key: string) => {
      if (key === 'ArrowRight' || key === 'PageDown') next();
      if (key === 'ArrowLeft' || key === 'PageUp') prev();
    },
    [next, prev],
  );
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName))) return;
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      turn(e.key);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [turn]);

  // The chapter list closes on Escape or a click anywhere else.
  const tocRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!tocOpen) return;
    const onDown = (e: MouseEvent) => {
      if (!tocRef.current?.contains(e.target as Node)) setTocOpen(false);
    };
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setTocOpen(false);
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [tocOpen]);

  const goTo = (position: string) => {
    moved.current = true;
    setBookEnded(false);
    viewer.current?.goTo(position);
  };
  const jump = (position: string) => {
    goTo(position);
    if (window.matchMedia?.('(max-width: 720px)').matches) settings.closePanels();
  };

  if (book.isLoading || content.isLoading) return <PageLoader label="Opening the book…" />;
  const failure = (book.error ?? content.error) as ApiError | Error | null;
  if (failure || !book.data || !content.data) return <ReaderProblem error={failure} onRetry={() => void Promise.all([book.refetch(), content.refetch()])} />;
  if (!progressSettled) return <PageLoader label="Finding your place…" />;

  const b = book.data;
  const format = formatOf(content.data.contentType, b.format);
  const Viewer = VIEWERS[format];
  const leftVisible = isLeftPartVisible(settings.visible);
  const openPanel = PANELS.find((p) => settings.visible[p.id]);
  const percent = Math.round(location?.percent ?? 0);

  return (
    <div
      ref={root}
      className={`reader reader-theme-${settings.theme} ${leftVisible ? 'reader-left-open' : ''} ${fullscreen.on ? 'reader-full' : ''} ${fullscreen.state === 'window' ? 'reader-full-window' : ''}`}
      data-testid="reader"
    >
      {leftVisible && openPanel ? (
        <aside className="reader-left" aria-label={`${openPanel.label} panel`} data-testid="reader-left">
          <div className="reader-left-head">
            <h2 className="reader-left-title">
              <Icon name={openPanel.icon} size={18} /> {openPanel.label}
            </h2>
            <button type="button" className="icon-button" aria-label="Close panel" onClick={settings.closePanels}>
              <Icon name="close" size={18} />
            </button>
          </div>
          <div className="reader-left-body">
            {openPanel.id === 'chat' ? <ChatPanel book={b} render={chatPanel} /> : null}
            {openPanel.id === 'comments' ? commentsPanel : null}
            {openPanel.id === 'explore' ? <ExplorePanel book={b} /> : null}
            {openPanel.id === 'bookmarks' ? <BookmarksPanel bookId={bookId} location={location} onJump={jump} /> : null}
            {openPanel.id === 'settings' ? <SettingsPanel /> : null}
          </div>
        </aside>
      ) : null}

      <section className="reader-book" aria-label={b.title}>
        <header className="reader-toolbar">
          <div className="reader-heading">
            <Link to={`/book?book_id=${encodeURIComponent(b.id)}`} className="reader-back" aria-label="Back to the book page">
              <Icon name="book" size={18} />
            </Link>
            <div className="reader-titles">
              <h1 className="reader-title" data-testid="reader-title">
                {b.title}
              </h1>
              <p className="muted small reader-subtitle">
                {b.author}
                {access === 'trial' ? <span className="badge badge-warning reader-sample-badge">Free sample</span> : null}
              </p>
            </div>
          </div>
          <div className="reader-tools" role="toolbar" aria-label="Reader tools">
            <div className="toc-wrap" ref={tocRef}>
              <Button variant="secondary" size="sm" aria-expanded={tocOpen} onClick={() => setTocOpen((v) => !v)} icon={<Icon name="menu" size={16} />}>
                Chapters
              </Button>
              {tocOpen ? (
                <div className="toc-popover">
                  <TocMenu
                    toc={entries}
                    access={access}
                    current={location?.label}
                    onPick={(e) => {
                      setTocOpen(false);
                      goTo(e.href);
                    }}
                    onLocked={() => {
                      setTocOpen(false);
                      setSampleEnded(true);
                    }}
                  />
                </div>
              ) : null}
            </div>
            {PANELS.map((p) => (
              <button
                key={p.id}
                type="button"
                className={`reader-tool ${settings.visible[p.id] ? 'reader-tool-active' : ''}`}
                aria-pressed={settings.visible[p.id]}
                onClick={() => settings.showPanel(p.id)}
                title={p.label}
                aria-label={p.label}
              >
                <Icon name={p.icon} size={18} />
                <span className="reader-tool-label">{p.label}</span>
              </button>
            ))}
          </div>
        </header>

        <div
          className="reader-stage"
          style={{ background: styles.background }}
          onWheel={() => (moved.current = true)}
          onTouchMove={() => (moved.current = true)}
        >
          {viewerError ? (
            <ReaderProblem error={new ApiError(viewerError, { status: 422, kind: 'http' })} onRetry={() => setViewerError(null)} compact />
          ) : (
            <Suspense fallback={<PageLoader label="Preparing the pages…" />}>
              <Viewer
                key={access}
                ref={viewer}
                data={content.data.data}
                toc={entries}
                access={access}
                startAt={startAt.current ?? null}
                styles={styles}
                dark={settings.theme === 'dark'}
                textSize={settings.textSize}
                mode={settings.mode}
                onLocation={onLocation}
                onEnd={onEnd}
                onKey={turn}
                onError={setViewerError}
              />
            </Suspense>
          )}
          {sampleEnded && access === 'trial' ? <TrialEnd book={b} buy={buy?.(b)} onClose={() => setSampleEnded(false)} /> : null}
          {bookEnded && access === 'full' ? (
            <BookEnd book={b} onComments={() => !settings.visible.comments && settings.showPanel('comments')} onClose={() => setBookEnded(false)} />
          ) : null}
        </div>

        <ReaderFooter
          percent={percent}
          access={access}
          label={location?.label}
          onPrev={prev}
          onNext={next}
          fullscreen={fullscreen.on}
          onFullscreen={fullscreen.toggle}
        />
        {!loggedIn ? (
          <p className="muted small reader-anon-note">
            Your place is kept on this device. <ButtonLink to={`/login?redirect=${encodeURIComponent(`/reader?book_id=${b.id}`)}`} variant="ghost" size="sm">Log in</ButtonLink> to take it everywhere.
          </p>
        ) : null}
      </section>
    </div>
  );
}
