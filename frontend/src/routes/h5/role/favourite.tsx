import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function H5ReaderFavouriteRoute() {
  useTitle('Favourites');
  return (
    <ComingSoon
      title="Favourites"
      icon="heart"
      description="The books you love, one tap away."
      backTo={{ label: 'Your profile', to: '/h5/reader/profile' }}
    />
  );
}
