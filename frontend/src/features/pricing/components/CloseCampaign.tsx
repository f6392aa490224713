// The writer ends a campaign: funded when the goal is met (the pledges are paid out and the
// backers get the book), failed otherwise (the pledges go back). Asked once more first.
import { useState } from 'react';
import { Button } from '@/components/Button';
import { Dialog } from '@/components/Dialog';
import { formatMoney, toCents } from '@/lib/money';
import { useCloseCampaign } from '../hooks';
import type { Campaign } from '../types';

export function CloseCampaign({ campaign, onClosed }: { campaign: Campaign; onClosed?: (c: Campaign) => unknown }) {
  const [open, setOpen] = useState(false);
  const close = useCloseCampaign(campaign.campaign_id, onClosed);
  const reached = toCents(campaign.pledged) >= toCents(campaign.goal);
  const confirm = () => close.mutate(undefined, { onSuccess: () => setOpen(false) });
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)} data-testid="campaign-close">
        Close campaign
      </Button>
      {open ? (
        <Dialog
          title="Close the campaign?"
          onClose={() => setOpen(false)}
          busy={close.isPending}
          testId="campaign-close-dialog"
          footer={
            <>
              <Button variant="ghost" onClick={() => setOpen(false)} disabled={close.isPending}>
                Keep it open
              </Button>
              <Button onClick={confirm} loading={close.isPending} data-autofocus data-testid="campaign-close-confirm">
                Close now
              </Button>
            </>
          }
        >
          <p>
            {reached
              ? `The goal is met: the ${formatMoney(campaign.pledged)} pledged is paid out to you, and every backer gets the whole book.`
              : `The goal is not met (${formatMoney(campaign.pledged)} of ${formatMoney(campaign.goal)}): every pledge goes back to its backer.`}
          </p>
          {close.isError ? (
            <p className="notice notice-error" role="alert">
              {close.error instanceof Error ? close.error.message : 'The campaign could not be closed'}
            </p>
          ) : null}
        </Dialog>
      ) : null}
    </>
  );
}
