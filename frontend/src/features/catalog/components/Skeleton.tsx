/** Placeholders in the shape of what is loading, so the page does not jump. */
export function CardSkeletons({ count = 5 }: { count?: number }) {
  return (
    <>
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="book-card book-card-skeleton" aria-hidden>
          <div className="skeleton skeleton-cover" />
          <div className="skeleton skeleton-line" />
          <div className="skeleton skeleton-line skeleton-short" />
        </div>
      ))}
    </>
  );
}

export function LineSkeletons({ count = 3 }: { count?: number }) {
  return (
    <div className="stack-sm" aria-hidden>
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className={`skeleton skeleton-line ${i === count - 1 ? 'skeleton-short' : ''}`} />
      ))}
    </div>
  );
}

/** Screen readers hear one "Loading" instead of the placeholders. */
export function LoadingLabel({ label = 'Loading books' }: { label?: string }) {
  return (
    <span className="visually-hidden" role="status">
      {label}
    </span>
  );
}
