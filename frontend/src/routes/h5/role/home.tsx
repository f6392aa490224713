import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { ButtonLink } from '@/components/Button';
import { Card, CardHeader } from '@/components/Card';
import { Icon } from '@/components/Icon';
import { ChatScreen } from '@/features/chat';
import {
  CatalogLinksProvider,
  h5Links,
  isSearching,
  MyUploads,
  PublisherDesk,
  readShopQuery,
  SearchBox,
  ShopFront,
  ShopSearch,
  useViewer,
} from '@/features/catalog';
import { loginPathWithRedirect } from '@/lib/redirect';
import { useTitle } from '@/lib/use-title';
import { ROLE_TITLE, useH5Role } from './use-h5-role';

const QUINN_PATH = '/h5/reader/home?view=quinn';

/** A reader's phone home: Quinn (?view=quinn) or the shop, switched at the top. */
function ReaderHome() {
  const [params] = useSearchParams();
  const here = useLocation();
  const quinn = params.get('view') === 'quinn';
  return (
    <div className="h5-reader-home">
      <nav className="segmented segmented-2 h5-home-switch" aria-label="Home view">
        <Link to={QUINN_PATH} className={`segmented-item ${quinn ? 'segmented-item-active' : ''}`} aria-current={quinn ? 'page' : undefined}>
          <Icon name="sparkles" size={16} /> Ask Quinn
        </Link>
        <Link to="/h5/reader/home" className={`segmented-item ${quinn ? '' : 'segmented-item-active'}`} aria-current={quinn ? undefined : 'page'}>
          <Icon name="library" size={16} /> Shop
        </Link>
      </nav>
      {quinn ? (
        // key: every arrival is a new, empty conversation
        <ChatScreen key={here.key} bookHref={h5Links.book} loginHref={loginPathWithRedirect(QUINN_PATH)} />
      ) : (
        <ReaderShop />
      )}
    </div>
  );
}

function ReaderShop() {
  const [params] = useSearchParams();
  const query = readShopQuery(params);
  const searching = isSearching(query);
  return (
    <CatalogLinksProvider value={h5Links}>
      <div className="shop h5-page">
        <section className="shop-hero shop-hero-compact" aria-labelledby="h5-shop-title">
          <h1 id="h5-shop-title">{searching ? (query.q ? 'Search results' : query.genre || 'All books') : 'Discover'}</h1>
          <SearchBox initialQuery={query.q} placeholder="Search books" />
        </section>
        {searching ? <ShopSearch /> : <ShopFront genreRows={3} />}
      </div>
    </CatalogLinksProvider>
  );
}

/** /h5/{role}/home: Quinn and the shop for readers, the desk for writers and publishers. */
export default function H5RoleHomeRoute() {
  const role = useH5Role();
  const viewer = useViewer();
  useTitle(`${ROLE_TITLE[role]} home`);
  if (role === 'reader') return <ReaderHome />;
  if (viewer.userId && role === 'writer') {
    return (
      <CatalogLinksProvider value={h5Links}>
        <div className="page h5-page">
          <h1>My books</h1>
          <MyUploads writerId={viewer.userId} />
        </div>
      </CatalogLinksProvider>
    );
  }
  if (viewer.userId && role === 'publisher') {
    return (
      <CatalogLinksProvider value={h5Links}>
        <div className="page h5-page">
          <h1>My shelf</h1>
          <PublisherDesk publisherId={viewer.userId} />
        </div>
      </CatalogLinksProvider>
    );
  }
  return <LogInFirst role={role} />;
}

/** A visitor on a writer's or publisher's home: what it holds, and the way in. */
function LogInFirst({ role }: { role: 'writer' | 'publisher' }) {
  const { pathname } = useLocation();
  return (
    <div className="page h5-page">
      <Card data-testid="log-in-first">
        <CardHeader
          title={`${ROLE_TITLE[role]} home`}
          subtitle={role === 'writer' ? 'Log in to see your books and switch them on or off.' : 'Log in to curate your shelf.'}
        />
        <ButtonLink to={`/login?redirect=${encodeURIComponent(pathname)}`}>Log in</ButtonLink>
      </Card>
    </div>
  );
}
