import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/Button';
import { parsePrice } from '../format';
import { SORT_LABELS, type ShopQuery, type ShopSort } from '../shop-query';

export interface ShopFiltersProps {
  value: ShopQuery;
  genres: string[];
  onChange: (next: ShopQuery) => void;
}

function priceText(n: number | undefined) {
  return n === undefined ? '' : String(n);
}

/** Genre, price range and order of the results page. */
export function ShopFilters({ value, genres, onChange }: ShopFiltersProps) {
  const id = useId();
  const [min, setMin] = useState(priceText(value.min));
  const [max, setMax] = useState(priceText(value.max));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setMin(priceText(value.min));
    setMax(priceText(value.max));
  }, [value.min, value.max]);

  const sorts = (Object.keys(SORT_LABELS) as ShopSort[]).filter((s) => value.q || s !== 'relevance');
  const genreOptions = value.genre && !genres.includes(value.genre) ? [value.genre, ...genres] : genres;

  const applyPrices = (e?: FormEvent) => {
    e?.preventDefault();
    const read = (raw: string) => {
      if (!raw.trim()) return { value: undefined };
      return parsePrice(raw);
    };
    const lo = read(min);
    const hi = read(max);
    if ('error' in lo) return setError(`Minimum price: ${lo.error}`);
    if ('error' in hi) return setError(`Maximum price: ${hi.error}`);
    if (lo.value !== undefined && hi.value !== undefined && lo.value > hi.value) {
      return setError('The minimum price is above the maximum');
    }
    setError(null);
    onChange({ ...value, min: lo.value, max: hi.value, page: 1 });
  };

  const filtered = value.genre || value.min !== undefined || value.max !== undefined || value.sort;

  return (
    <form className="shop-filters" onSubmit={applyPrices} aria-label="Filters" noValidate>
      <div className="filter">
        <label htmlFor={`${id}-genre`} className="field-label">
          Genre
        </label>
        <select id={`${id}-genre`} className="select" value={value.genre ?? ''} onChange={(e) => onChange({ ...value, genre: e.target.value || undefined, page: 1 })}>
          <option value="">All genres</option>
          {genreOptions.map((g) => (
            <option key={g} value={g}>
              {g}
            </option>
          ))}
        </select>
      </div>
      <div className="filter filter-price" role="group" aria-labelledby={`${id}-price`}>
        <span id={`${id}-price`} className="field-label">
          Price
        </span>
        <div className="price-range">
          <input
            className="input"
            inputMode="decimal"
            aria-label="Minimum price"
            placeholder="Min"
            value={min}
            onChange={(e) => setMin(e.target.value)}
            onBlur={() => applyPrices()}
          />
          <span aria-hidden>–</span>
          <input
            className="input"
            inputMode="decimal"
            aria-label="Maximum price"
            placeholder="Max"
            value={max}
            onChange={(e) => setMax(e.target.value)}
            onBlur={() => applyPrices()}
          />
        </div>
      </div>
      <div className="filter">
        <label htmlFor={`${id}-sort`} className="field-label">
          Sort
        </label>
        <select
          id={`${id}-sort`}
          className="select"
          value={value.sort ?? (value.q ? 'relevance' : 'newest')}
          onChange={(e) => onChange({ ...value, sort: e.target.value as ShopSort, page: 1 })}
        >
          {sorts.map((s) => (
            <option key={s} value={s}>
              {SORT_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <div className="filter filter-actions">
        <button type="submit" className="visually-hidden">
          Apply
        </button>
        {filtered ? (
          <Button variant="ghost" size="sm" onClick={() => onChange({ q: value.q, page: 1 })}>
            Clear filters
          </Button>
        ) : null}
      </div>
      {error ? (
        <p className="field-error filter-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
