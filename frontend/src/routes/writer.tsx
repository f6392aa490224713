import { desktopLinks, MyUploads } from '@/features/catalog';
import { WriterHome } from '@/features/manuscripts';
import { useTitle } from '@/lib/use-title';
import { RoleSalesReport } from './analytics-report';
import { useManuscriptBooks, WriterOnly } from './manuscript/writer-only';

/** The writer's desk, shared by /writer and /user/write. */
export function WriterDesk({ userId, title, eyebrow }: { userId: string; title: string; eyebrow?: string }) {
  const books = useManuscriptBooks(userId);
  return (
    <WriterHome
      title={title}
      eyebrow={eyebrow}
      publish={books.publish}
      publishedOf={books.publishedOf}
      books={<MyUploads writerId={userId} />}
    />
  );
}

/** /writer: the writer's studio, then their sales (readers and visitors see how to become a writer). */
export default function WriterRoute() {
  useTitle('Writer studio');
  return (
    <WriterOnly>
      {({ userId }) => (
        <>
          <WriterDesk userId={userId} title="Writer studio" />
          <RoleSalesReport as="writer" bookHref={desktopLinks.book} />
        </>
      )}
    </WriterOnly>
  );
}
