import { LegalPage } from '@/components/LegalPage';
import { useTitle } from '@/lib/use-title';

export default function TermsRoute() {
  useTitle('Terms of service');
  return (
    <LegalPage title="Terms of service" updated="1 November 2026">
      <p>By creating an account or using Quire you agree to these terms. Please read them; they are short.</p>
      <h2>Your account</h2>
      <p>
        Keep your password and wallet keys to yourself. You are responsible for what happens under your account. One
        person, one account; invite friends with your invite link instead of sharing yours.
      </p>
      <h2>Buying and reading</h2>
      <p>
        A purchased book is yours to read on Quire for as long as your account exists. Trial reads show the first
        chapters of a book. Purchases are paid from your Quire wallet; buying the same book twice never charges twice.
      </p>
      <h2>Writing and publishing</h2>
      <p>
        You keep the rights to what you upload. You give Quire the right to store, analyse, display and sell it on
        your behalf while it is published. Writers receive 90% of each sale; the rest keeps Quire running.
      </p>
      <h2>Fair use</h2>
      <ul>
        <li>No uploads you do not have the rights to.</li>
        <li>No abuse of other users in comments or conversations.</li>
        <li>No attempts to get around trial limits, rate limits or payments.</li>
      </ul>
      <h2>Changes</h2>
      <p>We will tell you by e-mail before these terms change in a way that matters to you.</p>
    </LegalPage>
  );
}
