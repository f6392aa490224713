import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function ManuscriptUploadRoute() {
  useTitle('Upload a manuscript');
  return (
    <ComingSoon
      title="Upload a manuscript"
      icon="upload"
      description="Upload one or more files with a genre; Quire extracts chapters and analyses the text."
      highlights={['One or more files', 'Genre selection', 'Automatic chapter extraction']}
      backTo={{ label: 'All manuscripts', to: '/manuscript' }}
    />
  );
}
