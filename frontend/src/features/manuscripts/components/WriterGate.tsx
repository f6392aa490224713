// Who may use the writer's screens: a visitor is asked to log in, anyone not acting as a
// writer is shown how to become one (the role switch comes from the route: it is the users
// feature's), a writer gets the screen. Nobody sees an error for being the wrong role.
// "Acting as a writer" is the current role, not a held one: the token of a role added
// without switching does not carry it yet, and the services would refuse the upload.
import type { ReactNode } from 'react';
import { Button, ButtonLink } from '@/components/Button';
import { Card, CardHeader, EmptyState, PageHeader } from '@/components/Card';
import { Icon, type IconName } from '@/components/Icon';
import { PageLoader } from '@/components/Spinner';
import type { User } from '@/lib/api-types';
import { useMe } from '@/lib/me';
import { loginPathWithRedirect } from '@/lib/redirect';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';

export function isWriter(user: Pick<User, 'current_role'> | null | undefined): boolean {
  return user?.current_role === 'writer';
}

const PERKS: { icon: IconName; title: string; text: string }[] = [
  { icon: 'upload', title: 'Upload', text: 'One or more files: epub, pdf, txt, docx or md.' },
  { icon: 'search', title: 'Analysis', text: 'Summaries, genre, characters, tags and chapter by chapter notes.' },
  { icon: 'chart', title: 'Quality scores', text: 'Each measure with what it means and how to lift it.' },
  { icon: 'shield', title: 'AI check', text: 'How machine-like the text reads, with the clues behind it.' },
  { icon: 'coins', title: 'Publish', text: 'Set a price and switch the book on to list it in the shop.' },
];

/** What a writer gets, for readers and visitors. */
export function WriterPerks() {
  return (
    <Card>
      <CardHeader title="What writers get" />
      <ul className="ms-perks">
        {PERKS.map((p) => (
          <li key={p.title} className="ms-perk">
            <span className="ms-perk-icon" aria-hidden>
              <Icon name={p.icon} size={18} />
            </span>
            <span>
              <strong>{p.title}</strong>
              <span className="muted small"> {p.text}</span>
            </span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** The way in for someone not acting as a writer: the perks and the route's role switch. */
export function BecomeWriter({ user, children }: { user: Pick<User, 'roles' | 'current_role'>; children?: ReactNode }) {
  const holds = (user.roles ?? []).includes('writer');
  return (
    <div className="page" data-testid="become-writer">
      <PageHeader
        eyebrow="Writer studio"
        title={holds ? 'Switch to your writer role' : 'Become a writer'}
        subtitle={
          holds
            ? `You are acting as ${user.current_role}. Switch to writer to upload and manage manuscripts.`
            : 'Add the writer role to your account, then switch to it to upload manuscripts. You keep your other roles and can switch back at any time.'
        }
      />
      <div className="grid-2">
        <WriterPerks />
        {children}
      </div>
    </div>
  );
}

function SignInToWrite({ here }: { here: string }) {
  return (
    <div className="page">
      <PageHeader eyebrow="Writer studio" title="Write with Quire" subtitle="Upload a manuscript and get it analysed, then price and publish it." />
      <div className="grid-2">
        <WriterPerks />
        <EmptyState icon="pen" title="Log in to start writing">
          <p>Your manuscripts and books live in your account.</p>
          <div className="ms-actions">
            <ButtonLink to={loginPathWithRedirect(here)} size="sm">
              Log in
            </ButtonLink>
            <ButtonLink to={`/register?redirect=${encodeURIComponent(here)}`} size="sm" variant="secondary">
              Create an account
            </ButtonLink>
          </div>
        </EmptyState>
      </div>
    </div>
  );
}

export interface WriterGateProps {
  /** The page's own path, to come back to after logging in. */
  here: string;
  /** What a logged-in user not acting as a writer sees (BecomeWriter with a role switch). */
  becomeWriter: (user: User) => ReactNode;
  children: (writer: { userId: string }) => ReactNode;
}

export function WriterGate({ here, becomeWriter, children }: WriterGateProps) {
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const me = useMe();
  if (!loggedIn) return <SignInToWrite here={here} />;
  const user = me.data;
  if (!user) {
    if (me.isLoading) return <PageLoader label="Loading your account…" />;
    return (
      <EmptyState icon="alert" title="Your account could not be loaded">
        <Button variant="secondary" size="sm" onClick={() => void me.refetch()}>
          Try again
        </Button>
      </EmptyState>
    );
  }
  if (!isWriter(user)) return <>{becomeWriter(user)}</>;
  return <>{children({ userId: String(user.user_id) })}</>;
}

/** A manuscript screen without a manuscript: no id, or one that is not there. */
export function ManuscriptMissing({ reason }: { reason?: string }) {
  return (
    <div className="page">
      <EmptyState icon="file" title={reason ? 'This manuscript could not be opened' : 'Choose a manuscript'}>
        <p>{reason ?? 'Open one from your manuscripts to see its analysis and edit it.'}</p>
        <div className="ms-actions">
          <ButtonLink to="/manuscript" size="sm" variant="secondary">
            Your manuscripts
          </ButtonLink>
          <ButtonLink to="/manuscript/upload" size="sm">
            Upload a manuscript
          </ButtonLink>
        </div>
      </EmptyState>
    </div>
  );
}
