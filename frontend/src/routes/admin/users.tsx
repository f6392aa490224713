import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button } from '@/components/Button';
import { Card, CardHeader, PageHeader } from '@/components/Card';
import { CreateUserForm, UsersTable } from '@/features/admin';
import { AdminWallets } from '@/features/wallet';
import { useTitle } from '@/lib/use-title';

type Tab = 'accounts' | 'wallets';

export default function AdminUsersRoute() {
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'wallets' ? 'wallets' : 'accounts';
  useTitle(tab === 'wallets' ? 'Wallets · Admin' : 'Users · Admin');
  const [creating, setCreating] = useState(false);
  const show = (next: Tab) => setParams(next === 'wallets' ? { tab: 'wallets' } : {}, { replace: true });
  return (
    <div className="page">
      <PageHeader
        eyebrow="Admin"
        title="Users"
        subtitle="Everyone with a Quire account, and their wallets."
        actions={
          tab === 'accounts' ? (
            <Button onClick={() => setCreating((v) => !v)} variant={creating ? 'secondary' : 'primary'}>
              {creating ? 'Close' : 'Create user'}
            </Button>
          ) : null
        }
      />
      <div className="tabs" role="tablist" aria-label="Users and wallets">
        {(['accounts', 'wallets'] as const).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            className={`tab-button ${tab === t ? 'tab-button-active' : ''}`}
            onClick={() => show(t)}
          >
            {t === 'accounts' ? 'Accounts' : 'Wallets'}
          </button>
        ))}
      </div>
      {tab === 'accounts' ? (
        <>
          {creating ? (
            <Card>
              <CardHeader title="New user" subtitle="The user can change the password after logging in." />
              <CreateUserForm onDone={() => setCreating(false)} />
            </Card>
          ) : null}
          <UsersTable />
        </>
      ) : (
        <AdminWallets />
      )}
    </div>
  );
}
