// Recharging the wallet: quick amounts or a typed one (checked as the server checks it), a
// plain word that the demo payment provider settles at once and charges nothing, progress
// while it runs, then the new balance and the payment's reference, or the error with a
// retry that resends the same Idempotency-Key. A recharge started from a book goes
// straight back to it once the money is in.
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, ButtonLink } from '@/components/Button';
import { Card, CardHeader } from '@/components/Card';
import { Icon } from '@/components/Icon';
import { TextField } from '@/components/TextField';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/stores/toast';
import { isUncertain } from '../idempotency';
import { useRecharge, useWallet } from '../hooks';
import { DEFAULT_CURRENCY, formatMoney, fromCents } from '@/lib/money';
import { MAX_AMOUNT, parseAmount, PRESET_AMOUNTS } from '../money';

export const DEMO_PAYMENT_NOTICE =
  'Payments are settled instantly by Quire’s built-in demo payment provider. No card is needed and no real money is charged.';
export const PROCESSING_TEXT = 'Processing payment...';

type Choice = { kind: 'preset'; amount: number } | { kind: 'custom' };

function initialChoice(initial?: number): { choice: Choice; text: string } {
  if (initial && PRESET_AMOUNTS.includes(initial as (typeof PRESET_AMOUNTS)[number])) {
    return { choice: { kind: 'preset', amount: initial }, text: '' };
  }
  if (initial && initial > 0) return { choice: { kind: 'custom' }, text: String(initial) };
  return { choice: { kind: 'preset', amount: 10 }, text: '' };
}

export interface RechargePanelProps {
  /** Preselected amount (e.g. what a purchase misses). */
  initialAmount?: number;
  /**
   * Where to go back to after recharging (an in-app path), with its label: a settled
   * payment returns there by itself, a pending one offers the way back.
   */
  back?: { to: string; label: string } | null;
}

export function RechargePanel({ initialAmount, back }: RechargePanelProps) {
  const wallet = useWallet();
  const recharge = useRecharge();
  const navigate = useNavigate();
  const [{ choice, text }, setInput] = useState(() => initialChoice(initialAmount));
  const [submitted, setSubmitted] = useState(false);
  const currency = wallet.data?.currency ?? DEFAULT_CURRENCY;

  const check = choice.kind === 'preset' ? parseAmount(String(choice.amount)) : parseAmount(text);
  const showError = choice.kind === 'custom' && !check.ok && (submitted || text.trim() !== '');
  const busy = recharge.isPending;

  const change = (next: { choice: Choice; text: string }) => {
    if (busy) return;
    setInput(next);
    setSubmitted(false);
    // A different amount is a different intent; the last answer no longer applies.
    if (!recharge.isIdle) recharge.reset();
  };

  const send = (cents: number) =>
    recharge.mutate(
      { cents },
      {
        onSuccess: (reply) => {
          if (reply?.record?.status !== 'settled') return;
          toast.success(`${formatMoney(fromCents(cents), currency)} added to your wallet`);
          // Replaced, so Back from the book does not land on a spent payment form.
          if (back) navigate(back.to, { replace: true });
        },
      },
    );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (!check.ok || busy) return;
    send(check.cents);
  };

  const reply = recharge.data;
  const error = recharge.error;
  const retryable = error ? isUncertain(error) : false;
  const lastCents = recharge.variables?.cents;

  return (
    <Card className="recharge-card">
      <CardHeader
        title="Add money"
        subtitle={
          wallet.data ? (
            <>
              Current balance: <strong data-testid="recharge-balance">{formatMoney(wallet.data.balance, currency)}</strong>
            </>
          ) : wallet.isLoading ? (
            'Loading your balance…'
          ) : (
            'Top up to buy books and support writers.'
          )
        }
      />
      <form className="form" aria-label="Recharge" onSubmit={submit} noValidate>
        <div>
          <p className="field-label" id="recharge-presets-label">
            Amount
          </p>
          <div className="amount-presets" role="radiogroup" aria-labelledby="recharge-presets-label">
            {PRESET_AMOUNTS.map((amount) => {
              const active = choice.kind === 'preset' && choice.amount === amount;
              return (
                <button
                  key={amount}
                  type="button"
                  role="radio"
                  aria-checked={active}
                  className={`amount-chip ${active ? 'amount-chip-active' : ''}`}
                  onClick={() => change({ choice: { kind: 'preset', amount }, text: '' })}
                  disabled={busy}
                >
                  {formatMoney(amount, currency)}
                </button>
              );
            })}
          </div>
        </div>
        <TextField
          label="Other amount"
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          placeholder="e.g. 12.50"
          value={text}
          disabled={busy}
          onChange={(e) => change({ choice: { kind: 'custom' }, text: e.target.value })}
          error={showError && !check.ok ? check.error : undefined}
          hint={`Any amount up to ${formatMoney(MAX_AMOUNT, currency)}, in whole cents.`}
        />

        <div className="notice demo-pay" role="note" data-testid="demo-payment-notice">
          <Icon name="shield" size={18} />
          <div>
            <p className="notice-title">Demo payments</p>
            <p>{DEMO_PAYMENT_NOTICE}</p>
          </div>
        </div>

        <Button type="submit" size="lg" block loading={busy} data-testid="recharge-submit">
          {busy ? PROCESSING_TEXT : check.ok ? `Recharge ${formatMoney(check.amount, currency)}` : 'Recharge'}
        </Button>

        <div aria-live="polite">
          {reply && !busy ? (
            <div className={`notice ${reply.record?.status === 'settled' ? 'notice-success' : 'notice-warning'} recharge-result`} data-testid="recharge-result">
              {reply.record?.status === 'settled' ? (
                <p className="notice-title">Payment settled: {formatMoney(reply.record.amount, currency)} added</p>
              ) : reply.record?.status === 'pending' ? (
                <p className="notice-title">Your payment is being confirmed; the money arrives as soon as it settles</p>
              ) : (
                <p className="notice-title">The payment failed; nothing was added</p>
              )}
              <p>
                New balance: <strong data-testid="recharge-new-balance">{formatMoney(reply.wallet?.balance, currency)}</strong>
              </p>
              {reply.record ? (
                <p>
                  Reference:{' '}
                  <span className="mono recharge-ref" data-testid="recharge-reference">
                    {reply.record.provider_ref || reply.record.id}
                  </span>
                </p>
              ) : null}
              {back ? (
                <div className="recharge-back">
                  <ButtonLink to={back.to} size="sm" data-testid="recharge-back">
                    {back.label}
                  </ButtonLink>
                </div>
              ) : null}
            </div>
          ) : error && !busy ? (
            <div className="notice notice-error recharge-error" role="alert" data-testid="recharge-error">
              <p>{error instanceof ApiError || error instanceof Error ? error.message : 'The payment did not go through'}</p>
              {retryable && lastCents !== undefined ? (
                <>
                  <p className="small recharge-retry-note">
                    We could not confirm whether {formatMoney(fromCents(lastCents), currency)} was added. Trying again is safe: it
                    continues the same payment, so you are never charged twice.
                  </p>
                  <Button variant="secondary" size="sm" onClick={() => send(lastCents)} data-testid="recharge-retry">
                    Try again
                  </Button>
                </>
              ) : null}
            </div>
          ) : null}
        </div>
      </form>
    </Card>
  );
}
