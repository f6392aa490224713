import { ComingSoon } from '@/components/ComingSoon';
import { useTitle } from '@/lib/use-title';

export default function ReaderRoute() {
  useTitle('Your reading room');
  return (
    <ComingSoon
      title="Your reading room"
      icon="chat"
      description="Chat with Quinn, our book assistant, to find your next read, and pick up where you left off."
      highlights={['Conversational recommendations', 'Continue reading', 'Bookmarks, comments and display settings']}
    />
  );
}
