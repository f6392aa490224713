// Plain text in a styled reading column: chapters from the toc's byte offsets, paragraphs
// from blank lines; the position is the byte offset of the paragraph at the top.
import { forwardRef, useEffect, useImperativeHandle, useMemo, useRef } from 'react';
import { paragraphAt, parseOffset, splitTxtBook } from '../txt';
import type { ViewerHandle, ViewerProps } from './viewer';

const HEADING_MAX = 120;

const TxtViewer = forwardRef<ViewerHandle, ViewerProps>(function TxtViewer(props, ref) {
  const { data, toc, access, styles, mode } = props;
  const box = useRef<HTMLDivElement>(null);
  // A sample ends where the first chapter it lacks starts in the whole file, with the
  // server's end-of-sample line there: that chapter's offset must not split it.
  const book = useMemo(() => splitTxtBook(data, access === 'trial' ? toc.filter((t) => t.trial) : toc), [data, toc, access]);
  const latest = useRef(props);
  latest.current = props;
  const ended = useRef(false);

  const scrollToOffset = (offset: number) => {
    const p = paragraphAt(book, offset);
    const node = p ? box.current?.querySelector<HTMLElement>(`[data-offset="${p.offset}"]`) : null;
    if (node && box.current) box.current.scrollTop = node.offsetTop - 8; // the host is the offset parent (position: relative)
  };

  const page = (dir: 1 | -1) => {
    const el = box.current;
    if (!el) return;
    const atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - 4;
    if (dir === 1 && atEnd) {
      latest.current.onEnd('next');
      return;
    }
    el.scrollBy({ top: dir * Math.max(80, el.clientHeight - 48) });
  };

  useImperativeHandle(ref, () => ({
    next: () => page(1),
    prev: () => page(-1),
    goTo: (position) => {
      const offset = parseOffset(position);
      if (offset !== null) scrollToOffset(offset);
    },
  }));

  // A new width (a panel, full screen) rewraps the text: the paragraph at the top stays there.
  const topOffset = useRef<number | null>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    let width = el.clientWidth;
    const observer = new ResizeObserver(() => {
      if (el.clientWidth === width) return;
      width = el.clientWidth;
      if (topOffset.current !== null) scrollToOffset(topOffset.current);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [book]);

  // Open at the saved place once the text is laid out.
  useEffect(() => {
    const offset = parseOffset(props.startAt);
    if (offset !== null) scrollToOffset(offset);
    report();
  }, [book]);

  const report = () => {
    const el = box.current;
    if (!el) return;
    const nodes = el.querySelectorAll<HTMLElement>('[data-offset]');
    const top = el.scrollTop;
    let current: HTMLElement | undefined = nodes[0];
    for (const n of nodes) {
      if (n.offsetTop + n.offsetHeight > top + 4) {
        current = n;
        break;
      }
    }
    const atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - 4;
    const offset = Number(current?.dataset.offset ?? 0);
    topOffset.current = offset;
    const chapter = [...book.chapters].reverse().find((c) => c.offset <= offset);
    latest.current.onLocation({
      position: `offset=${offset}`,
      percent: atEnd ? 100 : (offset / Math.max(1, book.totalBytes)) * 100,
      label: chapter?.title || undefined,
    });
    if (atEnd && !ended.current) latest.current.onEnd('reached');
    ended.current = atEnd;
  };

  const frame = useRef(0);
  const onScroll = () => {
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(report);
  };

  return (
    <div
      ref={box}
      className={`txt-host txt-${mode}`}
      data-testid="txt-view"
      onScroll={onScroll}
      style={{ background: styles.background, color: styles.color }}
    >
      <article className="txt-page" style={{ fontSize: styles.fontSize, fontWeight: styles.fontWeight }}>
        {book.chapters.map((ch) => (
          <section key={`${ch.index}-${ch.offset}`} className="txt-chapter" data-chapter={ch.index}>
            {ch.paragraphs.map((p, i) =>
              i === 0 && ch.index >= 0 && p.text.length <= HEADING_MAX ? (
                <h2 key={p.offset} data-offset={p.offset} className="txt-heading">
                  {p.text}
                </h2>
              ) : (
                <p key={p.offset} data-offset={p.offset}>
                  {p.text}
                </p>
              ),
            )}
          </section>
        ))}
      </article>
    </div>
  );
});

export default TxtViewer;
