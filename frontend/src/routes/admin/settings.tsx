import { Card, CardHeader, PageHeader } from '@/components/Card';
import { TrialSettingsForm } from '@/features/catalog';
import { useTitle } from '@/lib/use-title';

/** /admin/settings: platform settings (the free sample size). */
export default function AdminSettingsRoute() {
  useTitle('Platform settings · Admin');
  return (
    <div className="page">
      <PageHeader eyebrow="Admin" title="Platform settings" subtitle="Changes apply to every book at once." />
      <Card>
        <CardHeader title="Free sample" subtitle="How much of each book readers can read before buying it." />
        <TrialSettingsForm />
      </Card>
    </div>
  );
}
