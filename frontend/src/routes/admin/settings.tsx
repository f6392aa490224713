import { PageHeader } from '@/components/Card';
import { SettingsForm } from '@/features/admin';
import { useTitle } from '@/lib/use-title';

/** /admin/settings: every live setting; a change applies without a restart. */
export default function AdminSettingsRoute() {
  useTitle('Platform settings · Admin');
  return (
    <div className="page">
      <PageHeader eyebrow="Admin" title="Platform settings" subtitle="Changes apply at once, everywhere, and are written to the audit log." />
      <SettingsForm />
    </div>
  );
}
