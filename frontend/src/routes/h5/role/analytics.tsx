// /h5/{writer|publisher}/analytics: the role's sales on a phone; writers also get a book's
// revenue curve.
import { Link } from 'react-router-dom';
import { Card, EmptyState } from '@/components/Card';
import { h5Links } from '@/features/catalog';
import { loginPathWithRedirect } from '@/lib/redirect';
import { useTitle } from '@/lib/use-title';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import { RoleSalesReport } from '../../analytics-report';
import { ROLE_TITLE, useH5Role } from './use-h5-role';

export default function H5RoleAnalyticsRoute() {
  const role = useH5Role();
  const loggedIn = useAuthStore(selectIsLoggedIn);
  useTitle(`${ROLE_TITLE[role]} analytics`);
  const as = role === 'publisher' ? 'publisher' : 'writer';
  return (
    <div className="page h5-page h5-analytics" data-testid="h5-analytics">
      <header className="page-header">
        <div>
          <p className="eyebrow">{ROLE_TITLE[role]}</p>
          <h1>Analytics</h1>
          <p className="page-subtitle">
            {as === 'writer' ? 'Copies sold, earnings and crowd-funding of your books.' : 'How the books on your shelf sell.'}
          </p>
        </div>
      </header>
      {loggedIn ? (
        <RoleSalesReport as={as} bookHref={h5Links.book} compact />
      ) : (
        <Card>
          <EmptyState icon="chart" title="Log in to see your sales">
            <p>
              <Link to={loginPathWithRedirect(`/h5/${role}/analytics`, '/login/email')}>Log in</Link> and your books’ sales show
              up here.
            </p>
          </EmptyState>
        </Card>
      )}
    </div>
  );
}
