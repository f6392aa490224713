import { ButtonLink } from '@/components/Button';
import { Card, CardHeader, PageHeader } from '@/components/Card';
import { PublisherDesk, PublisherList, useViewer } from '@/features/catalog';
import { useTitle } from '@/lib/use-title';

/** /publisher: every publisher's shelf, and a logged-in publisher's own desk. */
export default function PublisherRoute() {
  useTitle('Publishers');
  const viewer = useViewer();
  const publisher = viewer.userId && viewer.has('publisher') ? viewer.userId : null;
  return (
    <div className="page">
      <PageHeader
        eyebrow="Publishers"
        title={publisher ? 'Publisher desk' : 'Publishers'}
        subtitle={publisher ? 'Curate your shelf from the books in the shop.' : 'Each publisher keeps a shelf of books they stand behind.'}
        actions={
          publisher ? (
            <ButtonLink to={`/publisher/book?publisher_id=${encodeURIComponent(publisher)}`} variant="secondary">
              View my shelf
            </ButtonLink>
          ) : null
        }
      />
      {publisher ? <PublisherDesk publisherId={publisher} /> : null}
      <Card>
        <CardHeader title="All publishers" subtitle="Open a publisher to browse their shelf." />
        <PublisherList />
      </Card>
    </div>
  );
}
