import { ButtonLink } from '@/components/Button';
import { Card, PageHeader } from '@/components/Card';
import { ManuscriptList } from '@/features/manuscripts';
import { useTitle } from '@/lib/use-title';
import { useManuscriptBooks, WriterOnly } from './writer-only';

function ManuscriptsScreen({ userId }: { userId: string }) {
  const books = useManuscriptBooks(userId);
  return (
    <div className="page">
      <PageHeader
        eyebrow="Writer studio"
        title="Manuscripts"
        subtitle="Everything you uploaded, from first analysis to published book."
        actions={<ButtonLink to="/manuscript/upload">Upload a manuscript</ButtonLink>}
      />
      <Card>
        <ManuscriptList publish={books.publish} publishedOf={books.publishedOf} />
      </Card>
    </div>
  );
}

/** /manuscript: the writer's manuscripts, paged, with their publish switches. */
export default function ManuscriptRoute() {
  useTitle('Manuscripts');
  return <WriterOnly>{({ userId }) => <ManuscriptsScreen userId={userId} />}</WriterOnly>;
}
