import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { ButtonLink } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { useTitle } from '@/lib/use-title';

export function NotFound() {
  useTitle('Page not found');
  return (
    <section className="coming-soon">
      <div className="coming-soon-art" aria-hidden>
        <Icon name="compass" size={40} />
      </div>
      <p className="eyebrow">404</p>
      <h1>This page is not on our shelves</h1>
      <p className="coming-soon-text">The address may be mistyped, or the page may have moved.</p>
      <div className="coming-soon-actions">
        <ButtonLink to="/">Back to home</ButtonLink>
      </div>
    </section>
  );
}

/** Shown when a route throws while rendering. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return (
    <section className="coming-soon">
      <div className="coming-soon-art" aria-hidden>
        <Icon name="alert" size={40} />
      </div>
      <h1>Something went wrong</h1>
      <p className="coming-soon-text">{error instanceof Error ? error.message : 'An unexpected error occurred.'}</p>
      <div className="coming-soon-actions">
        <a className="btn btn-primary btn-md" href="/platform/">
          Reload Quire
        </a>
      </div>
    </section>
  );
}
