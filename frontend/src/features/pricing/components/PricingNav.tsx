import { Link } from 'react-router-dom';

export type PricingScreen = 'suggested' | 'custom' | 'chart' | 'crowd';

const PATHS: Record<PricingScreen, string> = {
  suggested: '/manuscript/tags/AIPrice',
  custom: '/manuscript/tags/AIPrice/CustomPrice',
  chart: '/manuscript/tags/AIPrice/PriceInputChart',
  crowd: '/manuscript/tags/AIPrice/CrowdFunding',
};

const LABELS: Record<PricingScreen, string> = {
  suggested: 'AI price',
  custom: 'Custom price',
  chart: 'Price chart',
  crowd: 'Crowd-funding',
};

/** A pricing screen of one manuscript's book (?id= the manuscript, &book_id= its book). */
export function pricingPath(screen: PricingScreen, manuscriptId: string, bookId: string): string {
  return `${PATHS[screen]}?id=${encodeURIComponent(manuscriptId)}&book_id=${encodeURIComponent(bookId)}`;
}

/** The pricing screens of one book, as tabs. */
export function PricingNav({ manuscriptId, bookId, current }: { manuscriptId: string; bookId: string; current: PricingScreen }) {
  return (
    <nav className="segmented pricing-nav" aria-label="Pricing">
      {(Object.keys(PATHS) as PricingScreen[]).map((key) => (
        <Link
          key={key}
          to={pricingPath(key, manuscriptId, bookId)}
          className={`segmented-item ${key === current ? 'segmented-item-active' : ''}`}
          aria-current={key === current ? 'page' : undefined}
        >
          {LABELS[key]}
        </Link>
      ))}
    </nav>
  );
}
