import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { formatPrice } from '@/lib/money';
import { useSearch } from '../hooks';
import { useCatalogLinks } from '../links';
import { useDebouncedValue } from '../use-debounced-value';
import { bookIdOf } from './BookCard';
import { Cover } from './Cover';

export const SEARCH_DEBOUNCE_MS = 200;
const TOP_HITS = 5;

export interface SearchBoxProps {
  /** The text the box starts with (e.g. the ?q= of the page). */
  initialQuery?: string;
  /** Called on Enter / the search button; by default opens the results page. */
  onSubmit?: (query: string) => void;
  placeholder?: string;
  size?: 'sm' | 'lg';
  label?: string;
  className?: string;
}

/**
 * As-you-type search: after the typing pauses for SEARCH_DEBOUNCE_MS the top hits drop
 * down (arrow keys move, Enter opens, Escape closes); Enter on the text opens all results.
 */
export function SearchBox({
  initialQuery = '',
  onSubmit,
  placeholder = 'Search titles, authors, tags…',
  size = 'lg',
  label = 'Search books',
  className,
}: SearchBoxProps) {
  const navigate = useNavigate();
  const links = useCatalogLinks();
  const id = useId();
  const listId = `${id}-hits`;
  const [text, setText] = useState(initialQuery);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const wrapper = useRef<HTMLFormElement>(null);
  const query = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);

  useEffect(() => setText(initialQuery), [initialQuery]);

  // Suggestions fail quietly (no toast per keystroke); the list says so instead.
  const search = useSearch({ query, page: 1, page_size: TOP_HITS }, open && query.length > 0, true);
  const hits = query.length > 0 && search.data ? search.data.result.slice(0, TOP_HITS) : [];
  // The last option is "all results", so the keyboard can reach the results page too.
  const optionCount = query.length > 0 ? hits.length + 1 : 0;
  const showList = open && query.length > 0 && (search.data !== undefined || search.isFetching || search.isError);

  useEffect(() => setActive(-1), [query]);

  const close = () => {
    setOpen(false);
    setActive(-1);
  };

  const submit = (q: string) => {
    close();
    const trimmed = q.trim();
    if (onSubmit) onSubmit(trimmed);
    else navigate(trimmed ? links.search(trimmed) : '/');
  };

  const choose = (index: number) => {
    if (index < hits.length) {
      close();
      navigate(links.book(bookIdOf(hits[index])));
    } else submit(text);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' && optionCount > 0) {
      e.preventDefault();
      setOpen(true);
      setActive((a) => (a + 1) % optionCount);
    } else if (e.key === 'ArrowUp' && optionCount > 0) {
      e.preventDefault();
      setActive((a) => (a <= 0 ? optionCount - 1 : a - 1));
    } else if (e.key === 'Escape') {
      if (open) {
        e.preventDefault();
        close();
      }
    } else if (e.key === 'Enter' && showList && active >= 0) {
      e.preventDefault();
      choose(active);
    }
  };

  const onFormSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit(text);
  };

  return (
    <form
      ref={wrapper}
      role="search"
      className={`search-box search-${size} ${className ?? ''}`}
      onSubmit={onFormSubmit}
      onBlur={(e) => {
        if (!wrapper.current?.contains(e.relatedTarget as Node | null)) close();
      }}
    >
      <label htmlFor={`${id}-input`} className="visually-hidden">
        {label}
      </label>
      <Icon name="search" size={size === 'sm' ? 16 : 18} className="search-icon" />
      <input
        id={`${id}-input`}
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={showList && active >= 0 ? `${id}-opt-${active}` : undefined}
        autoComplete="off"
        enterKeyHint="search"
        placeholder={placeholder}
        value={text}
        maxLength={200}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={onKeyDown}
      />
      {search.isFetching && open && query ? <Spinner size={14} label="Searching" /> : null}
      <button type="submit" className="search-submit" aria-label="Show all results">
        <Icon name="arrowRight" size={16} />
      </button>
      <ul id={listId} role="listbox" aria-label="Top matches" className="search-hits" hidden={!showList}>
        {showList && hits.length === 0 && !search.isFetching ? (
          <li className="search-hit-empty" role="presentation">
            {search.isError && !search.data ? 'Suggestions are unavailable right now' : `No books match “${query}”`}
          </li>
        ) : null}
        {hits.map((hit, i) => (
          <li
            key={bookIdOf(hit)}
            id={`${id}-opt-${i}`}
            role="option"
            aria-selected={active === i}
            className={`search-hit ${active === i ? 'search-hit-active' : ''}`}
            onMouseDown={(e) => e.preventDefault()}
            onMouseEnter={() => setActive(i)}
            onClick={() => choose(i)}
            data-testid="search-hit"
          >
            <Cover src={hit.cover_image} title={hit.title} width={32} decorative />
            <span className="search-hit-text">
              <span className="search-hit-title">{hit.title}</span>
              <span className="search-hit-sub">
                {hit.author || 'Unknown author'} · {formatPrice(hit.price)}
              </span>
            </span>
            {typeof hit.match_percentage === 'number' ? <span className="search-hit-match">{Math.round(hit.match_percentage)}%</span> : null}
          </li>
        ))}
        {showList ? (
          <li
            id={`${id}-opt-${hits.length}`}
            role="option"
            aria-selected={active === hits.length}
            className={`search-hit search-hit-all ${active === hits.length ? 'search-hit-active' : ''}`}
            onMouseDown={(e) => e.preventDefault()}
            onMouseEnter={() => setActive(hits.length)}
            onClick={() => choose(hits.length)}
          >
            {search.data ? `See all ${search.data.total} results for “${query}”` : `Search for “${query}”`}
          </li>
        ) : null}
      </ul>
    </form>
  );
}
