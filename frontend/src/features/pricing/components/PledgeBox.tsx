// A reader backs a campaign: an amount and a button. The wallet pays; a 402 means it holds
// too little, and the way to recharge (and back here) is offered. One Idempotency-Key per
// pledge: a retry after a lost answer cannot pledge twice.
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Button, ButtonLink } from '@/components/Button';
import { ApiError } from '@/lib/api-client';
import { isUncertain } from '@/lib/idempotency';
import { toCents } from '@/lib/money';
import { acceptsPledges } from '../campaign';
import { usePledge } from '../hooks';
import type { Campaign, PledgeReply } from '../types';
import { parseMoney } from '../validate';

export const NOT_ENOUGH_MONEY = 'Not enough money in your wallet';

export interface PledgeBoxProps {
  campaign: Campaign;
  loggedIn: boolean;
  /** Where a visitor signs in (and comes back). */
  loginTo: string;
  /** The recharge page for `cents` more, coming back here. */
  rechargeTo: (cents: number) => string;
  onPledged?: (reply: PledgeReply) => unknown;
}

type Failure = { kind: 'short'; cents: number } | { kind: 'refused'; message: string } | { kind: 'retry'; message: string };

function failureOf(error: unknown, cents: number): Failure {
  const message = error instanceof Error && error.message ? error.message : 'The pledge did not go through';
  if (error instanceof ApiError && error.status === 402) return { kind: 'short', cents };
  if (isUncertain(error)) return { kind: 'retry', message };
  return { kind: 'refused', message };
}

export function PledgeBox({ campaign, loggedIn, loginTo, rechargeTo, onPledged }: PledgeBoxProps) {
  const fieldId = useId();
  const [text, setText] = useState('5');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<Failure | null>(null);
  const pledge = usePledge(campaign.campaign_id, onPledged);

  if (!acceptsPledges(campaign)) return null;
  if (!loggedIn) {
    return (
      <div className="pledge-box" data-testid="pledge-box">
        <ButtonLink to={loginTo} data-testid="pledge-signin">
          Sign in to pledge
        </ButtonLink>
      </div>
    );
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = parseMoney(text);
    if (!checked.ok) {
      setError(checked.error);
      return;
    }
    setError(undefined);
    setFailure(null);
    pledge.mutate(checked.value, {
      onError: (err) => setFailure(failureOf(err, toCents(checked.value))),
    });
  };

  return (
    <form className="pledge-box" onSubmit={submit} aria-label="Pledge" noValidate data-testid="pledge-box">
      <div className={`field ${error ? 'field-invalid' : ''}`}>
        <label htmlFor={fieldId} className="field-label">
          Your pledge (USD)
        </label>
        <div className="pledge-row">
          <input
            id={fieldId}
            name="amount"
            inputMode="decimal"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setError(undefined);
            }}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? `${fieldId}-error` : `${fieldId}-hint`}
            data-testid="pledge-amount"
          />
          <Button type="submit" loading={pledge.isPending} data-testid="pledge-submit">
            {failure?.kind === 'retry' ? 'Try again' : 'Pledge'}
          </Button>
        </div>
        {error ? (
          <p id={`${fieldId}-error`} className="field-error" role="alert">
            {error}
          </p>
        ) : (
          <p id={`${fieldId}-hint`} className="field-hint">
            Paid from your wallet now. If the goal is met, you get the whole book; if not, the money comes back.
          </p>
        )}
      </div>
      {failure?.kind === 'short' ? (
        <div className="notice notice-warning" role="alert" data-testid="pledge-short">
          <p className="notice-title">{NOT_ENOUGH_MONEY}</p>
          <p>
            <Link to={rechargeTo(failure.cents)}>Recharge your wallet</Link> and come back to pledge.
          </p>
        </div>
      ) : failure ? (
        <p className="notice notice-error" role="alert" data-testid="pledge-error">
          {failure.message}
        </p>
      ) : null}
    </form>
  );
}
