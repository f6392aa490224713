// The book page's crowd-funding: when the book has an open campaign, its progress, and the
// pledge box for readers or Close for the writer. Nothing when there is none.
import type { ReactNode } from 'react';
import { Card, CardHeader } from '@/components/Card';
import { openCampaign } from '../campaign';
import { useCampaigns } from '../hooks';
import type { PledgeReply } from '../types';
import { CampaignProgress } from './CampaignProgress';
import { CloseCampaign } from './CloseCampaign';
import { PledgeBox } from './PledgeBox';

export interface CampaignOnBookProps {
  bookId: string;
  loggedIn: boolean;
  /** The viewer's user id; null for a visitor (or while the profile loads). */
  viewerId: string | null;
  loginTo: string;
  rechargeTo: (cents: number) => string;
  /** After a pledge or a close: the route refreshes the wallet, the book and the reader. */
  onChanged?: (reply?: PledgeReply) => unknown;
  /** Shown under the progress (e.g. a link for the writer to the campaign page). */
  extra?: ReactNode;
}

export function CampaignOnBook({ bookId, loggedIn, viewerId, loginTo, rechargeTo, onChanged, extra }: CampaignOnBookProps) {
  const campaigns = useCampaigns(bookId);
  const open = openCampaign(campaigns.data);
  if (!open) return null;
  const isWriter = Boolean(viewerId && viewerId === String(open.writer_uid));
  return (
    <Card className="campaign-on-book" data-testid="book-campaign">
      <CardHeader
        title="Crowd-funding"
        subtitle={isWriter ? 'Your campaign for this book.' : 'Back this book: if the goal is met, every backer gets the whole book.'}
        actions={isWriter ? <CloseCampaign campaign={open} onClosed={() => onChanged?.()} /> : null}
      />
      <CampaignProgress campaign={open} />
      {isWriter ? null : (
        <PledgeBox campaign={open} loggedIn={loggedIn} loginTo={loginTo} rechargeTo={rechargeTo} onPledged={onChanged} />
      )}
      {extra}
    </Card>
  );
}
