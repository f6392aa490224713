// pdf through react-pdf (pdf.js). The worker is bundled by webpack from pdfjs-dist (the
// `new URL(..., import.meta.url)` below becomes an asset under /platform/assets/), so no
// other host is ever asked for it. Pages fit the width (they follow the host's size: a panel
// or full screen re-renders them); the preset's size scales them and pdf.js paints the
// preset's background where the page is blank. A pdf page is a picture, so the dark theme
// inverts it (light paper becomes dark, black ink light).
import { forwardRef, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState } from 'react';
import { Document, Page, pdfjs } from 'react-pdf';
import { Spinner } from '@/components/Spinner';
import type { ViewerHandle, ViewerProps } from './viewer';

pdfjs.GlobalWorkerOptions.workerSrc = new URL('pdfjs-dist/build/pdf.worker.min.mjs', import.meta.url).toString();

const PAGE_RE = /^page=(\d+)$/;

export function parsePage(position: string | null | undefined): number | null {
  const m = PAGE_RE.exec((position ?? '').trim());
  return m ? Math.max(1, Number(m[1])) : null;
}

function useWidth(el: React.RefObject<HTMLElement>) {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const node = el.current;
    if (!node) return;
    const measure = () => setWidth(node.clientWidth);
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(node);
    return () => ro.disconnect();
  }, [el]);
  return width;
}

const PdfViewer = forwardRef<ViewerHandle, ViewerProps>(function PdfViewer(props, ref) {
  const { data, toc, styles, dark, textSize, mode, onLocation, onEnd, onError } = props;
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  const [pages, setPages] = useState(0);
  const [page, setPage] = useState(() => parsePage(props.startAt) ?? 1);
  // pdf.js takes ownership of the buffer it gets: hand it a copy.
  const file = useMemo(() => ({ data: new Uint8Array(data.slice(0)) }), [data]);

  const show = useCallback(
    (n: number) => {
      if (!pages) return;
      const target = Math.min(Math.max(1, n), pages);
      setPage(target);
      if (mode === 'scrolled') box.current?.querySelector(`[data-page="${target}"]`)?.scrollIntoView({ block: 'start' });
    },
    [pages, mode],
  );

  useImperativeHandle(ref, () => ({
    next: () => (page >= pages ? onEnd('next') : show(page + 1)),
    prev: () => show(page - 1),
    goTo: (position) => {
      const n = parsePage(position);
      if (n !== null) show(n);
    },
  }));

  useEffect(() => {
    if (!pages) return;
    const label = [...toc].reverse().find((t) => (parsePage(t.href) ?? Infinity) <= page)?.title;
    onLocation({ position: `page=${page}`, percent: pages <= 1 ? 100 : ((page - 1) / (pages - 1)) * 100, label: label ?? `Page ${page} of ${pages}` });
    if (page === pages) onEnd('reached');
  }, [page, pages]);

  // Entering scrolled mode (or opening in it) starts at the current page.
  useEffect(() => {
    if (mode !== 'scrolled' || !pages) return;
    const timer = setTimeout(() => box.current?.querySelector(`[data-page="${page}"]`)?.scrollIntoView({ block: 'start' }), 300);
    return () => clearTimeout(timer);
    // only when the mode or the document changes, not on every page the reader scrolls past
  }, [mode, pages]);

  // A new width re-renders every page at another height: keep the current one in view.
  const current = useRef(page);
  current.current = page;
  useEffect(() => {
    if (mode !== 'scrolled' || !pages) return;
    const timer = setTimeout(() => box.current?.querySelector(`[data-page="${current.current}"]`)?.scrollIntoView({ block: 'start' }), 200);
    return () => clearTimeout(timer);
  }, [width]);

  // Scrolled mode: the page nearest the top is the current one.
  useEffect(() => {
    if (mode !== 'scrolled' || !pages || !box.current) return;
    const root = box.current;
    const io = new IntersectionObserver(
      (entries) => {
        const top = entries.filter((e) => e.isIntersecting).sort((a, b) => a.boundingClientRect.top - b.boundingClientRect.top)[0];
        const n = Number((top?.target as HTMLElement | undefined)?.dataset.page);
        if (n) setPage(n);
      },
      { root, threshold: 0.5 },
    );
    root.querySelectorAll('[data-page]').forEach((n) => io.observe(n));
    return () => io.disconnect();
  }, [mode, pages]);

  const fit = Math.max(200, Math.min(width - 32, 960));
  const scale = textSize / 100;
  const renderPage = (n: number) => (
    <div key={n} className={`pdf-page ${dark ? 'pdf-page-dark' : ''}`} data-page={n} style={{ background: styles.background }}>
      <Page
        pageNumber={n}
        width={fit}
        scale={scale}
        canvasBackground={dark ? '#ffffff' : styles.background}
        renderTextLayer={false}
        renderAnnotationLayer={false}
        loading={<Spinner />}
      />
    </div>
  );

  return (
    <div ref={box} className="pdf-host" data-testid="pdf-host" style={{ background: styles.background }}>
      <Document
        file={file}
        loading={<Spinner label="Opening the pdf" />}
        onLoadSuccess={(doc) => {
          setPages(doc.numPages);
          setPage((p) => Math.min(p, doc.numPages));
        }}
        onLoadError={(e) => onError(e.message || 'The pdf could not be opened')}
        error={<p className="reader-inline-error">This pdf could not be opened.</p>}
      >
        {width > 0 && pages > 0
          ? mode === 'scrolled'
            ? Array.from({ length: pages }, (_, i) => renderPage(i + 1))
            : renderPage(Math.min(page, pages))
          : null}
      </Document>
    </div>
  );
});

export default PdfViewer;
