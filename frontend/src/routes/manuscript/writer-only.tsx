// The writer's screens compose three features: the manuscripts' gate and pages, the users'
// role switch for whoever is not acting as a writer yet, and the catalog's book (its
// fields, update_book and the publish switch). The glue lives here, in the routes.
import { useMemo, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { PublishSwitch, usePublishStatus, useWriterBooks } from '@/features/catalog';
import { BecomeWriter, WriterGate, type ManuscriptSummary } from '@/features/manuscripts';
import { RoleSettings } from '@/features/users';
import { useRefreshWallet } from '@/features/wallet';
import { toast } from '@/stores/toast';

/** Renders `children` for a user acting as a writer; visitors and readers get the way in. */
export function WriterOnly({ children }: { children: (writer: { userId: string }) => ReactNode }) {
  const location = useLocation();
  const refreshWallet = useRefreshWallet();
  return (
    <WriterGate
      here={location.pathname + location.search}
      becomeWriter={(user) => (
        <BecomeWriter user={user}>
          <RoleSettings user={user} refreshWallet={refreshWallet} />
        </BecomeWriter>
      )}
    >
      {children}
    </WriterGate>
  );
}

export interface ManuscriptPublishSwitchProps {
  userId: string;
  bookId: string;
  on: boolean;
  disabled?: boolean;
}

/** The writer's on/off switch of a manuscript's book (publish_book_status, the catalog's). */
export function ManuscriptPublishSwitch({ userId, bookId, on, disabled }: ManuscriptPublishSwitchProps) {
  const status = usePublishStatus(userId);
  const checked = status.isPending ? status.variables.on : on;
  return (
    <span className="ms-publish" data-testid="publish-switch">
      <PublishSwitch
        checked={checked}
        busy={status.isPending}
        disabled={disabled || !bookId}
        label={checked ? 'Published' : 'Not published'}
        onChange={(next) =>
          status.mutate(
            { bookId, on: next },
            {
              onSuccess: (reply) => {
                if (!(reply?.on ?? next)) toast.success('Unpublished: the book left the shop');
                else if (reply?.listed === false) toast.info('Switched on, but the book is not listed in the shop');
                else toast.success('Published: the book is in the shop');
              },
            },
          )
        }
      />
    </span>
  );
}

/**
 * The switches and states of a list of manuscripts, from the writer's books as the catalog
 * holds them: the catalog answers for a switch at once, while the manuscripts' own list
 * learns of it from the catalog's events a moment later. Until the books are in, the
 * list's own state stands.
 */
export function useManuscriptBooks(userId: string) {
  const books = useWriterBooks(userId);
  return useMemo(() => {
    const byId = new Map((books.data ?? []).map((b) => [String(b.book_id ?? b.id), b]));
    return {
      publishedOf: (m: ManuscriptSummary) => byId.get(m.book_id)?.listed,
      publish: (m: ManuscriptSummary) => (
        <ManuscriptPublishSwitch userId={userId} bookId={m.book_id} on={byId.get(m.book_id)?.on ?? m.state === 'published'} />
      ),
    };
  }, [books.data, userId]);
}
