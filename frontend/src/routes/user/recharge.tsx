// /user/recharge[?amount=…&redirect=…]: add money to the wallet, then (when a purchase sent
// the user here) go back to the book; the recent top-ups below.
import { useSearchParams } from 'react-router-dom';
import { ButtonLink } from '@/components/Button';
import { Card, CardHeader, EmptyState, PageHeader } from '@/components/Card';
import { RechargePanel, TopUpRecords, parseAmount } from '@/features/wallet';
import { inAppReturnPath, loginPathWithRedirect } from '@/lib/redirect';
import { useTitle } from '@/lib/use-title';
import { selectIsLoggedIn, useAuthStore } from '@/stores/auth';

/** The way back after recharging (a purchase sends its page along), with words that say where. */
function backLink(raw: string | null): { to: string; label: string } | null {
  const to = inAppReturnPath(raw);
  if (!to || to.startsWith('/user/recharge')) return null;
  return { to, label: /^\/(h5\/)?(book|reader)(\?|$)/.test(to) ? 'Back to the book' : 'Go back' };
}

export default function UserRechargeRoute() {
  useTitle('Recharge wallet');
  const [params] = useSearchParams();
  const loggedIn = useAuthStore(selectIsLoggedIn);
  const back = backLink(params.get('redirect'));
  const amount = parseAmount(params.get('amount') ?? '');

  if (!loggedIn) {
    const here = `/user/recharge${params.toString() ? `?${params.toString()}` : ''}`;
    return (
      <div className="page">
        <PageHeader eyebrow="Wallet" title="Recharge your wallet" subtitle="Add money to buy books and support writers." />
        <EmptyState icon="card" title="Log in to recharge your wallet">
          <p>Your wallet pays for books; sales and invite rewards are paid into it.</p>
          <ButtonLink to={loginPathWithRedirect(here)} size="sm">
            Log in
          </ButtonLink>
        </EmptyState>
      </div>
    );
  }

  return (
    <div className="page">
      <PageHeader
        eyebrow="Wallet"
        title="Recharge your wallet"
        subtitle="Add money to buy books and support writers. It is ready to spend at once."
        actions={
          back ? (
            <ButtonLink to={back.to} variant="secondary">
              {back.label}
            </ButtonLink>
          ) : (
            <ButtonLink to="/user" variant="secondary">
              Your wallet
            </ButtonLink>
          )
        }
      />
      <div className="recharge-layout">
        <RechargePanel initialAmount={amount.ok ? amount.amount : undefined} back={back} />
        <Card>
          <CardHeader title="Recent top-ups" subtitle="Recharges and credits, newest first." />
          <TopUpRecords pageSize={5} />
        </Card>
      </div>
    </div>
  );
}
