import { Link } from 'react-router-dom';

export interface GenreChip {
  name: string;
  count?: number;
}

export interface GenreChipsProps {
  genres: Array<GenreChip | string>;
  selected?: string;
  /** Buttons that select a genre (filters); without it the chips are links. */
  onSelect?: (genre: string | undefined) => void;
  linkTo?: (genre: string) => string;
  /** Shows an "All" chip first (only with onSelect). */
  withAll?: boolean;
  label?: string;
}

export function GenreChips({ genres, selected, onSelect, linkTo, withAll, label = 'Genres' }: GenreChipsProps) {
  const chips = genres.map((g) => (typeof g === 'string' ? { name: g } : g));
  if (chips.length === 0) return null;
  return (
    <ul className="chips" aria-label={label}>
      {onSelect && withAll ? (
        <li>
          <button type="button" className={`chip ${!selected ? 'chip-active' : ''}`} aria-pressed={!selected} onClick={() => onSelect(undefined)}>
            All
          </button>
        </li>
      ) : null}
      {chips.map((g) => {
        const active = selected === g.name;
        const body = (
          <>
            <span>{g.name}</span>
            {g.count !== undefined ? <span className="chip-count">{g.count}</span> : null}
          </>
        );
        return (
          <li key={g.name}>
            {onSelect ? (
              <button type="button" className={`chip ${active ? 'chip-active' : ''}`} aria-pressed={active} onClick={() => onSelect(active ? undefined : g.name)}>
                {body}
              </button>
            ) : linkTo ? (
              <Link className="chip" to={linkTo(g.name)}>
                {body}
              </Link>
            ) : (
              <span className="chip chip-static">{body}</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
