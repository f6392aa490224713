// Every route of spec section 2, under the /platform base, inside one shared layout.
import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { BASE_PATH } from '@/lib/redirect';
import { RequireAdmin, RequireAuth, RequireH5Role } from './guards';
import { AppLayout } from './layout/AppLayout';
import { NotFound, RouteError } from './NotFound';

import Home from '@/routes/home';
import Login from '@/routes/login';
import LoginEmail from '@/routes/login/email';
import LoginWallet from '@/routes/login/wallet';
import LoginReset from '@/routes/login/reset';
import LoginOidc from '@/routes/login/oidc';
import Register from '@/routes/register';
import Privacy from '@/routes/privacy';
import Terms from '@/routes/terms';
import AdminHome from '@/routes/admin';
import AdminLogin from '@/routes/admin/login';
import AdminUsers from '@/routes/admin/users';
import AdminContent from '@/routes/admin/content';
import AdminSettings from '@/routes/admin/settings';
import Book from '@/routes/book';
import Reader from '@/routes/reader';
import Writer from '@/routes/writer';
import Publisher from '@/routes/publisher';
import PublisherBook from '@/routes/publisher/book';
import Manuscript from '@/routes/manuscript';
import ManuscriptUpload from '@/routes/manuscript/upload';
import ManuscriptEdit from '@/routes/manuscript/edit';
import ManuscriptAnalysis from '@/routes/manuscript/analysis';
import ManuscriptTags from '@/routes/manuscript/tags';
import AiPrice from '@/routes/manuscript/tags/ai-price';
import CustomPrice from '@/routes/manuscript/tags/ai-price/custom-price';
import CrowdFunding from '@/routes/manuscript/tags/ai-price/crowd-funding';
import PriceInputChart from '@/routes/manuscript/tags/ai-price/price-input-chart';
import UserHome from '@/routes/user';
import UserBooks from '@/routes/user/books';
import UserProfile from '@/routes/user/profile';
import UserSettings from '@/routes/user/settings';
import UserRecharge from '@/routes/user/recharge';
import UserRewards from '@/routes/user/rewards';
import UserWrite from '@/routes/user/write';
import H5Home from '@/routes/h5';
import H5Book from '@/routes/h5/book';
import H5Manuscript from '@/routes/h5/manuscript';
import H5RoleIndex from '@/routes/h5/role';
import H5RoleHome from '@/routes/h5/role/home';
import H5RoleProfile from '@/routes/h5/role/profile';
import H5RoleHistory from '@/routes/h5/role/history';
import H5RoleFavourite from '@/routes/h5/role/favourite';
import H5RoleAnalytics from '@/routes/h5/role/analytics';

const admin = (element: JSX.Element) => <RequireAdmin>{element}</RequireAdmin>;
const authed = (element: JSX.Element) => <RequireAuth>{element}</RequireAuth>;
const h5 = (element: JSX.Element, only?: string[]) => <RequireH5Role only={only}>{element}</RequireH5Role>;

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <Home /> },
      { path: 'login', element: <Login /> },
      { path: 'login/email', element: <LoginEmail /> },
      { path: 'login/wallet', element: <LoginWallet /> },
      { path: 'login/reset', element: <LoginReset /> },
      { path: 'login/oidc', element: <LoginOidc /> },
      { path: 'register', element: <Register /> },
      { path: 'privacy', element: <Privacy /> },
      { path: 'terms', element: <Terms /> },

      { path: 'admin/login', element: <AdminLogin /> },
      { path: 'admin', element: admin(<AdminHome />) },
      { path: 'admin/users', element: admin(<AdminUsers />) },
      { path: 'admin/content', element: admin(<AdminContent />) },
      { path: 'admin/settings', element: admin(<AdminSettings />) },
      { path: 'admin/*', element: admin(<NotFound />) },

      { path: 'book', element: <Book /> },
      { path: 'reader', element: <Reader /> },
      { path: 'writer', element: <Writer /> },
      { path: 'publisher', element: <Publisher /> },
      { path: 'publisher/book', element: <PublisherBook /> },

      { path: 'manuscript', element: <Manuscript /> },
      { path: 'manuscript/upload', element: <ManuscriptUpload /> },
      { path: 'manuscript/edit', element: <ManuscriptEdit /> },
      { path: 'manuscript/analysis', element: <ManuscriptAnalysis /> },
      { path: 'manuscript/tags', element: <ManuscriptTags /> },
      { path: 'manuscript/tags/AIPrice', element: <AiPrice /> },
      { path: 'manuscript/tags/AIPrice/CustomPrice', element: <CustomPrice /> },
      { path: 'manuscript/tags/AIPrice/CrowdFunding', element: <CrowdFunding /> },
      { path: 'manuscript/tags/AIPrice/PriceInputChart', element: <PriceInputChart /> },

      { path: 'user', element: <UserHome /> },
      { path: 'user/books', element: <UserBooks /> },
      { path: 'user/profile', element: authed(<UserProfile />) },
      { path: 'user/settings', element: authed(<UserSettings />) },
      { path: 'user/recharge', element: <UserRecharge /> },
      { path: 'user/rewards', element: <UserRewards /> },
      { path: 'user/write', element: <UserWrite /> },

      { path: 'h5', element: <H5Home /> },
      { path: 'h5/book', element: <H5Book /> },
      { path: 'h5/manuscript', element: <H5Manuscript /> },
      { path: 'h5/:role', element: h5(<H5RoleIndex />) },
      { path: 'h5/:role/home', element: h5(<H5RoleHome />) },
      { path: 'h5/:role/profile', element: h5(<H5RoleProfile />) },
      { path: 'h5/:role/history', element: h5(<H5RoleHistory />) },
      { path: 'h5/:role/favourite', element: h5(<H5RoleFavourite />, ['reader']) },
      { path: 'h5/:role/analytics', element: h5(<H5RoleAnalytics />, ['writer', 'publisher']) },

      { path: '*', element: <NotFound /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes, {
    basename: BASE_PATH,
    future: { v7_relativeSplatPath: true, v7_fetcherPersist: true, v7_normalizeFormMethod: true, v7_partialHydration: true, v7_skipActionErrorRevalidation: true },
  });
}
