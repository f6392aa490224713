import { useNavigate } from 'react-router-dom';
import { ButtonLink } from '@/components/Button';
import { Card, PageHeader } from '@/components/Card';
import { analysisPath, UploadForm } from '@/features/manuscripts';
import { useTitle } from '@/lib/use-title';
import { WriterOnly } from './writer-only';

/** /manuscript/upload: files in, analysis out (then its screen). */
export default function ManuscriptUploadRoute() {
  useTitle('Upload a manuscript');
  const navigate = useNavigate();
  return (
    <WriterOnly>
      {({ userId }) => (
        <div className="page">
          <PageHeader
            eyebrow="Writer studio"
            title="Upload a manuscript"
            subtitle="One or more files; Quire finds the chapters and analyses the text."
            actions={
              <ButtonLink to="/manuscript" variant="secondary">
                All manuscripts
              </ButtonLink>
            }
          />
          <Card>
            <UploadForm
              uid={userId}
              onUploaded={(detail) => navigate(detail.manuscript_id ? analysisPath(detail.manuscript_id) : '/manuscript')}
            />
          </Card>
        </div>
      )}
    </WriterOnly>
  );
}
