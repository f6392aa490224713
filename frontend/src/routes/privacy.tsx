import { LegalPage } from '@/components/LegalPage';
import { useTitle } from '@/lib/use-title';

export default function PrivacyRoute() {
  useTitle('Privacy policy');
  return (
    <LegalPage title="Privacy policy" updated="1 November 2026">
      <p>
        Quire keeps only what it needs to run your account, your library and your wallet. This page says what that
        is, why we keep it and what you can do about it.
      </p>
      <h2>What we collect</h2>
      <ul>
        <li>Account data: your e-mail address, username, password hash, roles and, if you link one, your wallet address.</li>
        <li>Library data: books you buy, reading progress, bookmarks, comments, favourites and history.</li>
        <li>Writing data: manuscripts you upload and the analyses we produce from them.</li>
        <li>Conversations with Quinn, used to recommend books to you.</li>
        <li>Wallet records: recharges, purchases and rewards.</li>
      </ul>
      <h2>How we use it</h2>
      <p>
        To let you log in, to show you your books, to recommend books, to pay writers their share and to keep the
        platform safe from abuse. We do not sell your data, and we do not show you third-party advertising.
      </p>
      <h2>Your browser</h2>
      <p>
        Quire stores your session (an access token), your chosen role and your reading display settings in your
        browser’s local storage. Logging out removes them.
      </p>
      <h2>Your rights</h2>
      <p>
        You can see and edit your profile at any time, and you can ask us to export or delete your account by writing
        to <a href="mailto:privacy@quire.local">privacy@quire.local</a>.
      </p>
    </LegalPage>
  );
}
