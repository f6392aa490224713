import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useCatalogLinks } from '../links';
import type { ShelfBook } from '../types';

function hue(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 17 + text.charCodeAt(i)) % 360;
  return h;
}

// A spine's height, its least width and, from its title, about how wide the drawn spine
// is (title columns of ~15px at ~7px a letter, beside the author's); real widths come from
// the CSS, this only decides where a plank of the bookcase ends.
const LETTER_PX = 7.2;
const COLUMN_PX = 15;

function spineSize(book: ShelfBook) {
  // Spines differ a little in height and width, like real books.
  const h = hue(book.title);
  const height = 170 + (h % 5) * 8;
  const minWidth = 38 + (h % 3) * 6;
  const columns = Math.max(1, Math.ceil((book.title.length * LETTER_PX) / (height - 40)));
  const estimate = Math.max(minWidth, columns * COLUMN_PX + 8 + (book.author ? 18 : 0));
  return { h, height, minWidth, estimate };
}

/**
 * A book's spine, drawn with its whole title (wrapping over as many columns as it needs)
 * and, as far as it fits, its author; the tooltip and the label say both in full. The
 * server's spine image is not used: scaled to a shelf it cropped long titles.
 */
function Spine({ book }: { book: ShelfBook }) {
  const links = useCatalogLinks();
  const { h, height, minWidth } = spineSize(book);
  const name = `${book.title}${book.author ? ` by ${book.author}` : ''}`;
  return (
    <li className="spine-slot">
      <Link to={links.book(book.id)} className="spine" style={{ height, minWidth }} aria-label={name} title={name}>
        <span className="spine-drawn" style={{ background: `linear-gradient(90deg, hsl(${h} 40% 22%), hsl(${h} 45% 34%) 45%, hsl(${h} 40% 24%))` }}>
          <span className="spine-title">{book.title}</span>
          {book.author ? <span className="spine-author">{book.author}</span> : null}
        </span>
      </Link>
    </li>
  );
}

export interface ShelfProps {
  books: ShelfBook[];
  /** Books per plank; by default as many as fit the width. */
  perShelf?: number;
  label?: string;
}

// The spines' gap, the plank's padding; a plank that still overflows scrolls.
const GAP_PX = 4;
const PLANK_PADDING_PX = 40;

/** The bookcase's inner width as it is drawn now (null before it is measured). */
function useShelfWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const w = el.clientWidth - PLANK_PADDING_PX;
      if (w > 0) setWidth(w);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/** Books onto planks: `perShelf` each, else as many as fit `width` (12 before it is known). */
function planksOf(books: ShelfBook[], perShelf: number | undefined, width: number | null): ShelfBook[][] {
  const planks: ShelfBook[][] = [];
  if (perShelf || width === null) {
    const n = perShelf ?? 12;
    for (let i = 0; i < books.length; i += n) planks.push(books.slice(i, i + n));
    return planks;
  }
  let used = 0;
  for (const book of books) {
    const w = spineSize(book).estimate + GAP_PX;
    const plank = planks.at(-1);
    if (plank && plank.length > 0 && used + w <= width) {
      plank.push(book);
      used += w;
    } else {
      planks.push([book]);
      used = w;
    }
  }
  return planks;
}

/** A bookcase: the books' spines standing on planks; a spine opens its book. */
export function Shelf({ books, perShelf, label = 'Bookshelf' }: ShelfProps) {
  const { ref, width } = useShelfWidth();
  const planks = planksOf(books, perShelf, width);
  return (
    <div className="bookcase" role="group" aria-label={label} data-testid="shelf" ref={ref}>
      {planks.map((plank, i) => (
        <div key={i} className="plank">
          <ul className="plank-books">
            {plank.map((b) => (
              <Spine key={b.id} book={b} />
            ))}
          </ul>
          <div className="plank-board" aria-hidden />
        </div>
      ))}
    </div>
  );
}
