import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useCatalogLinks } from '../links';
import type { ShelfBook } from '../types';

function hue(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 17 + text.charCodeAt(i)) % 360;
  return h;
}

function Spine({ book }: { book: ShelfBook }) {
  const links = useCatalogLinks();
  const [failed, setFailed] = useState(!book.spineImage);
  // Spines differ a little in height and width, like real books.
  const h = hue(book.title);
  const height = 170 + (h % 5) * 8;
  const width = 38 + (h % 3) * 6;
  return (
    <li className="spine-slot">
      <Link
        to={links.book(book.id)}
        className="spine"
        style={{ height, width }}
        aria-label={`${book.title}${book.author ? ` by ${book.author}` : ''}`}
        title={`${book.title}${book.author ? ` — ${book.author}` : ''}`}
      >
        {failed ? (
          <span className="spine-drawn" style={{ background: `linear-gradient(90deg, hsl(${h} 40% 22%), hsl(${h} 45% 34%) 45%, hsl(${h} 40% 24%))` }}>
            <span className="spine-title">{book.title}</span>
            {book.author ? <span className="spine-author">{book.author}</span> : null}
          </span>
        ) : (
          <img src={book.spineImage} alt="" onError={() => setFailed(true)} loading="lazy" />
        )}
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

// An average spine (44px) and the gap between spines; a plank that still overflows scrolls.
const SLOT_PX = 50;
const PLANK_PADDING_PX = 40;

/** How many spines fit on one plank of the bookcase as it is drawn now. */
function useSpinesPerPlank(fixed: number | undefined) {
  const ref = useRef<HTMLDivElement>(null);
  const [fit, setFit] = useState(12);
  useEffect(() => {
    const el = ref.current;
    if (fixed || !el) return;
    const measure = () => {
      const width = el.clientWidth - PLANK_PADDING_PX;
      if (width > 0) setFit(Math.max(3, Math.floor(width / SLOT_PX)));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [fixed]);
  return { ref, perPlank: fixed ?? fit };
}

/** A bookcase: the books' spines standing on planks; a spine opens its book. */
export function Shelf({ books, perShelf, label = 'Bookshelf' }: ShelfProps) {
  const { ref, perPlank } = useSpinesPerPlank(perShelf);
  const planks: ShelfBook[][] = [];
  for (let i = 0; i < books.length; i += perPlank) planks.push(books.slice(i, i + perPlank));
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
