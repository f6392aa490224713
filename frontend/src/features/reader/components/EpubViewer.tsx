// epub through epub.js: the bytes are opened as a zip in the browser (no second request),
// the appearance preset goes into every page through rendition.themes, and book.locations
// turns a CFI into the percent saved as progress.
import ePub, { EpubCFI, type Book, type Location, type Rendition } from 'epubjs';
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import { toast } from '@/stores/toast';
import type { ViewerHandle, ViewerProps } from './viewer';

const LOCATION_CHARS = 1200;
/** A panel sliding open resizes the host over a few frames: lay out once it settles. */
const RESIZE_SETTLE_MS = 120;

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

const cfi = new EpubCFI();

/** Does the page shown hold this CFI? */
function shows(loc: Location, at: string): boolean {
  try {
    return cfi.compare(loc.start.cfi, at) <= 0 && cfi.compare(at, loc.end.cfi) <= 0;
  } catch {
    return false;
  }
}

const EpubViewer = forwardRef<ViewerHandle, ViewerProps>(function EpubViewer(props, ref) {
  const host = useRef<HTMLDivElement>(null);
  const bookRef = useRef<Book | null>(null);
  const renditionRef = useRef<Rendition | null>(null);
  const lastLocation = useRef<Location | null>(null);
  // The place the reader is reading: the start of the page they turned to. A new size or
  // text size shows the page that holds it, and it stays the same until they move on, so
  // opening and closing a panel comes back to the very page they left.
  const anchor = useRef<string | null>(props.startAt);
  const latest = useRef(props);
  latest.current = props;

  useImperativeHandle(ref, () => ({
    next: () => {
      if (lastLocation.current?.atEnd) latest.current.onEnd('next');
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
      if (!anchor.current || !shows(loc, anchor.current)) anchor.current = loc.start.cfi;
      const at = loc.start.cfi;
      const ready = book.locations.length() > 0;
      const percent = loc.atEnd ? 100 : ready ? book.locations.percentageFromCfi(at) * 100 : loc.start.percentage * 100;
      const section = latest.current.toc.find((t) => fileName(t.href) === fileName(loc.start.href));
      latest.current.onLocation({ position: at, percent, label: section?.title });
      if (loc.atEnd) latest.current.onEnd('reached');
    };
    rendition.on('relocated', report);
    rendition.on('keydown', (e: KeyboardEvent) => latest.current.onKey?.(e.key));

    // epub.js only hears of window resizes; a panel or full screen changes the host alone,
    // and pages laid out for the old width cut lines or show a sliver of the next column.
    let settle: ReturnType<typeof setTimeout> | undefined;
    let size = { width: el.clientWidth, height: el.clientHeight };
    const observer = new ResizeObserver(() => {
      clearTimeout(settle);
      settle = setTimeout(() => {
        const now = { width: el.clientWidth, height: el.clientHeight };
        if (!alive || !now.width || !now.height || (now.width === size.width && now.height === size.height)) return;
        size = now;
        relayout(rendition, anchor.current);
      }, RESIZE_SETTLE_MS);
    });
    observer.observe(el);

    const start = anchor.current;
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
      clearTimeout(settle);
      observer.disconnect();
      renditionRef.current = null;
      bookRef.current = null;
      book.destroy();
    };
  }, [props.data, props.mode]);

  // New colours or a new text size reflow the pages; the reader stays at their place.
  useEffect(() => {
    const rendition = renditionRef.current;
    if (!rendition) return;
    applyStyles(rendition, props);
    const at = anchor.current;
    if (!at || !lastLocation.current) return;
    const timer = setTimeout(() => void rendition.display(at).catch(() => undefined), 150);
    return () => clearTimeout(timer);
  }, [props.styles, props.textSize]);

  return <div ref={host} className="epub-host" data-testid="epub-host" style={{ background: props.styles.background }} />;
});

/** Lays the pages out for the host's new size and shows the page that holds `at`. */
function relayout(rendition: Rendition, at: string | null) {
  // With no size given epub.js measures its container (width and height 100%).
  (rendition as unknown as { resize: (w?: number, h?: number, cfi?: string) => void }).resize(undefined, undefined, at ?? undefined);
}

function applyStyles(rendition: Rendition, props: ViewerProps) {
  const { styles } = props;
  rendition.themes.override('background', styles.background, true);
  rendition.themes.override('color', styles.color, true);
  rendition.themes.override('font-size', styles.fontSize, true);
  rendition.themes.override('font-weight', styles.fontWeight, true);
}

export default EpubViewer;
