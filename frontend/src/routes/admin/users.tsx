import { useState } from 'react';
import { Button } from '@/components/Button';
import { Card, CardHeader, PageHeader } from '@/components/Card';
import { CreateUserForm, UsersTable } from '@/features/admin';
import { useTitle } from '@/lib/use-title';

export default function AdminUsersRoute() {
  useTitle('Users · Admin');
  const [creating, setCreating] = useState(false);
  return (
    <div className="page">
      <PageHeader
        eyebrow="Admin"
        title="Users"
        subtitle="Everyone with a Quire account."
        actions={
          <Button onClick={() => setCreating((v) => !v)} variant={creating ? 'secondary' : 'primary'}>
            {creating ? 'Close' : 'Create user'}
          </Button>
        }
      />
      {creating ? (
        <Card>
          <CardHeader title="New user" subtitle="The user can change the password after logging in." />
          <CreateUserForm onDone={() => setCreating(false)} />
        </Card>
      ) : null}
      <UsersTable />
    </div>
  );
}
