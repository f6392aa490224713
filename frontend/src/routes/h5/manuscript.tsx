import { useNavigate } from 'react-router-dom';
import { analysisPath, PhoneManuscripts } from '@/features/manuscripts';
import { useTitle } from '@/lib/use-title';
import { useManuscriptBooks, WriterOnly } from '../manuscript/writer-only';

function PhoneScreen({ userId }: { userId: string }) {
  const navigate = useNavigate();
  const books = useManuscriptBooks(userId);
  return (
    <PhoneManuscripts
      uid={userId}
      publish={books.publish}
      publishedOf={books.publishedOf}
      onUploaded={(detail) => navigate(detail.manuscript_id ? analysisPath(detail.manuscript_id) : '/h5/manuscript')}
    />
  );
}

/** /h5/manuscript: the phone page of a writer's manuscripts, with the upload folded in. */
export default function H5ManuscriptRoute() {
  useTitle('Manuscripts');
  return <WriterOnly>{({ userId }) => <PhoneScreen userId={userId} />}</WriterOnly>;
}
