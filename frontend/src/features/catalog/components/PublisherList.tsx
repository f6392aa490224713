import { Link } from 'react-router-dom';
import { EmptyState } from '@/components/Card';
import { Icon } from '@/components/Icon';
import { usePublishers } from '../hooks';
import { LineSkeletons } from './Skeleton';

/** Every publisher with the size of its selection; each opens its bookshelf. */
export function PublisherList() {
  const publishers = usePublishers();
  if (publishers.isLoading) return <LineSkeletons count={4} />;
  const list = publishers.data ?? [];
  if (list.length === 0) {
    return <EmptyState icon="landmark" title={publishers.isError ? 'Publishers could not be loaded' : 'No publishers yet'} />;
  }
  return (
    <ul className="publisher-list">
      {list.map((p) => (
        <li key={p.publisher_id}>
          <Link to={`/publisher/book?publisher_id=${encodeURIComponent(p.publisher_id)}`} className="publisher-item">
            <span className="publisher-icon" aria-hidden>
              <Icon name="landmark" size={20} />
            </span>
            <span className="publisher-text">
              <span className="publisher-name">{p.name || 'Unnamed publisher'}</span>
              <span className="muted small">
                {p.book_count} {p.book_count === 1 ? 'book' : 'books'} on the shelf
              </span>
            </span>
            <Icon name="arrowRight" size={16} />
          </Link>
        </li>
      ))}
    </ul>
  );
}
