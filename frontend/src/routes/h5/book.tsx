import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function H5BookRoute() {
  useTitle('Book');
  return (
    <ComingSoon
      title="Book"
      icon="book"
      description="Book details and a free trial read, made for your phone."
      highlights={['Summaries and scores', 'Trial read', 'Buy in one tap']}
      backTo={{ label: 'Your profile', to: '/h5/reader/profile' }}
    />
  );
}
