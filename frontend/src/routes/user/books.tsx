import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function UserBooksRoute() {
  useTitle('Your library');
  return (
    <ComingSoon
      title="Your library"
      icon="library"
      description="Every book you have bought, ready to read on any device."
      highlights={['Bought books', 'Reading progress', 'Favourites']}
      backTo={{ label: 'Open your profile', to: '/user/profile' }}
    />
  );
}
