import { PageHeader } from '@/components/Card';
import { Dashboard } from '@/features/admin';
import { useTitle } from '@/lib/use-title';

/** /admin: the platform at a glance, and the audit log of admin actions. */
export default function AdminHomeRoute() {
  useTitle('Dashboard · Admin');
  return (
    <div className="page">
      <PageHeader eyebrow="Admin" title="Dashboard" subtitle="Accounts, books, sales and the services behind them." />
      <Dashboard />
    </div>
  );
}
