import { Link } from 'react-router-dom';

const q = (id: string) => `id=${encodeURIComponent(id)}`;

export const analysisPath = (id: string) => `/manuscript/analysis?${q(id)}`;
export const editPath = (id: string) => `/manuscript/edit?${q(id)}`;
export const tagsPath = (id: string) => `/manuscript/tags?${q(id)}`;
/** AI pricing: the suggestion, a custom price, the chart and crowd-funding of the manuscript's book. */
export const pricePath = (id: string, bookId: string) => `/manuscript/tags/AIPrice?${q(id)}&book_id=${encodeURIComponent(bookId)}`;

export type ManuscriptScreen = 'analysis' | 'edit' | 'tags' | 'price';

/** The steps of one manuscript: what was found, its details, its tags, its price. */
export function ManuscriptNav({ id, bookId, current }: { id: string; bookId: string; current: ManuscriptScreen }) {
  const tabs: { key: ManuscriptScreen; label: string; to: string }[] = [
    { key: 'analysis', label: 'Analysis', to: analysisPath(id) },
    { key: 'edit', label: 'Details', to: editPath(id) },
    { key: 'tags', label: 'Tags', to: tagsPath(id) },
    { key: 'price', label: 'Pricing', to: pricePath(id, bookId) },
  ];
  return (
    <nav className="tabs ms-nav" aria-label="Manuscript">
      {tabs.map((t) => (
        <Link
          key={t.key}
          to={t.to}
          className={`tab-button ${t.key === current ? 'tab-button-active' : ''}`}
          aria-current={t.key === current ? 'page' : undefined}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
