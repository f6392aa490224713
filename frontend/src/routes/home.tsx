import { useSearchParams } from 'react-router-dom';
import { ButtonLink } from '@/components/Button';
import { isSearching, readShopQuery, SearchBox, ShopFront, ShopSearch } from '@/features/catalog';
import { MobileBanner } from '@/features/landing';
import { currentDevice } from '@/lib/device';
import { useCurrentUser } from '@/lib/me';
import { useTitle } from '@/lib/use-title';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';
import { useRoleStore } from '@/stores/role';

const device = currentDevice();

/** The shop: a search box, then either the shop front or the results of /?q=…&genre=… */
export default function HomeRoute() {
  const [params] = useSearchParams();
  const query = readShopQuery(params);
  const searching = isSearching(query);
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const username = useCurrentUser()?.username;
  const role = useRoleStore((s) => s.currentRole);
  useTitle(query.q ? `“${query.q}”` : searching ? 'Browse books' : '');

  return (
    <div className="shop">
      <MobileBanner device={device} role={role} />
      <section className={`shop-hero ${searching || loggedIn ? 'shop-hero-compact' : ''}`} aria-labelledby="shop-title">
        {searching ? (
          <h1 id="shop-title">{query.q ? 'Search results' : query.genre ? query.genre : 'All books'}</h1>
        ) : loggedIn ? (
          <h1 id="shop-title">Welcome back{username ? `, ${username}` : ''}</h1>
        ) : (
          <>
            <p className="eyebrow">Read · Write · Publish</p>
            <h1 id="shop-title">
              Your next favourite book <span className="accent">is on these shelves.</span>
            </h1>
            <p className="muted">Search by title, author or mood; read a free sample of any book before you buy it.</p>
          </>
        )}
        <SearchBox initialQuery={query.q} />
        {!searching && !loggedIn ? (
          <div className="shop-hero-actions">
            <ButtonLink to="/register">Create a free account</ButtonLink>
            <ButtonLink to="/login" variant="secondary">
              Log in
            </ButtonLink>
          </div>
        ) : null}
      </section>
      {searching ? <ShopSearch /> : <ShopFront />}
    </div>
  );
}
