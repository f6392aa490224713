// epub through epub.js: the bytes are opened as a zip in the browser (no second request),
// the appearance preset goes into every page through rendition.themes, and book.locations
// turns a CFI into the percent saved as progress.
import ePub, { type Book, type Location, type Rendition } from 'epubjs';
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import { toast } from '@/stores/toast';
import type { ViewerHandle, ViewerProps } from './viewer';

const LOCATION_CHARS = 1200;

function fileName(href: string): string {
  return href.split('#')[0].split('/').pop() ?? href;
}

/** A toc href as the spine knows it: the server may name it from the zip root or the opf. */
function resolveTarget(book: Book, target: string): string {
  if (target.startsWith('epubcfi(')) return target;
  const [path, hash] = target.split('#');
  if (book.spine.get(path)) return target;
  let found: string | undefined;
  book.spine.each((item: { href: string }) => {
    if (!found && (target.endsWith(item.href) || fileName(item.href) === fileName(path))) found = item.href;
  });
  return found ? (hash ? `${found}#${hash}` : found) : target;
}

const EpubViewer = forwardRef<ViewerHandle, ViewerProps>(function EpubViewer(props, ref) {
  const host = useRef<HTMLDivElement>(null);
  const bookRef = useRef<Book | null>(null);
  const renditionRef = useRef<Rendition | null>(null);
  const lastLocation = useRef<Location | null>(null);
  const position = useRef<string | null>(props.startAt);
  const latest = useRef(props);
  latest.current = props;

  useImperativeHandle(ref, () => ({
    next: () => {
      if (lastLocation.current?.atEnd) latest.current.onEnd();
      else void renditionRef.current?.next();
    },
    prev: () => void renditionRef.current?.prev(),
    goTo: (target) => {
      const book = bookRef.current;
      const rendition = renditionRef.current;
      if (!book || !rendition) return;
      // A bad target (an old bookmark, a chapter the sample lacks) is not worth closing the book over.
      rendition.display(resolveTarget(book, target)).catch(() => toast.info('That place is not in this copy of the book'));
    },
  }));

  // One book per file; a new rendition when the mode changes (epub.js fixes the flow at start).
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    let alive = true;
    const book = ePub(props.data.slice(0));
    bookRef.current = book;
    const rendition = book.renderTo(el, {
      width: '100%',
      height: '100%',
      flow: props.mode === 'scrolled' ? 'scrolled-doc' : 'paginated',
      spread: 'none',
      allowScriptedContent: false,
    });
    renditionRef.current = rendition;
    applyStyles(rendition, latest.current);

    const report = (loc: Location) => {
      if (!alive) return;
      lastLocation.current = loc;
      const cfi = loc.start.cfi;
      position.current = cfi;
      const ready = book.locations.length() > 0;
      const percent = loc.atEnd ? 100 : ready ? book.locations.percentageFromCfi(cfi) * 100 : loc.start.percentage * 100;
      const section = latest.current.toc.find((t) => fileName(t.href) === fileName(loc.start.href));
      latest.current.onLocation({ position: cfi, percent, label: section?.title });
      if (loc.atEnd) latest.current.onEnd();
    };
    rendition.on('relocated', report);
    rendition.on('keydown', (e: KeyboardEvent) => latest.current.onKey?.(e.key));

    const start = position.current;
    const open = async () => {
      await book.ready;
      try {
        await rendition.display(start ? resolveTarget(book, start) : undefined);
      } catch {
        await rendition.display();
      }
      await book.locations.generate(LOCATION_CHARS);
      const current = rendition.location as Location | undefined;
      if (alive && current?.start) report(current);
    };
    open().catch((e: unknown) => {
      if (alive) latest.current.onError(e instanceof Error ? e.message : 'The book could not be opened');
    });

    return () => {
      alive = false;
      renditionRef.current = null;
      bookRef.current = null;
      book.destroy();
    };
  }, [props.data, props.mode]);

  // A new size reflows the pages; the reader stays at the place they were reading.
  useEffect(() => {
    const rendition = renditionRef.current;
    if (!rendition) return;
    const at = lastLocation.current?.start.cfi;
    applyStyles(rendition, props);
    if (!at) return;
    const timer = setTimeout(() => void rendition.display(at).catch(() => undefined), 150);
    return () => clearTimeout(timer);
  }, [props.styles, props.textSize]);

  return <div ref={host} className="epub-host" data-testid="epub-host" style={{ background: props.styles.background }} />;
});

function applyStyles(rendition: Rendition, props: ViewerProps) {
  const { styles } = props;
  rendition.themes.override('background', styles.background, true);
  rendition.themes.override('color', styles.color, true);
  rendition.themes.override('font-size', styles.fontSize, true);
  rendition.themes.override('font-weight', styles.fontWeight, true);
}

export default EpubViewer;
