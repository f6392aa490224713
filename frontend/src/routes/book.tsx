import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function BookRoute() {
  useTitle('Book details');
  return (
    <ComingSoon
      title="Book details"
      icon="book"
      description="Covers, summaries, scores and reviews for every book, with a free trial read before you buy."
      highlights={['Short and long summaries', 'Quality scores and tags', 'Buy once, read everywhere']}
    />
  );
}
