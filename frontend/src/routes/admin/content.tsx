import { PageHeader } from '@/components/Card';
import { AdminBooksTable } from '@/features/catalog';
import { useTitle } from '@/lib/use-title';

/** /admin/content: every book, listed or not, with take-down and restore. */
export default function AdminContentRoute() {
  useTitle('Content moderation · Admin');
  return (
    <div className="page">
      <PageHeader eyebrow="Admin" title="Content moderation" subtitle="Every book on Quire. A book taken down leaves the shop and search at once." />
      <AdminBooksTable />
    </div>
  );
}
