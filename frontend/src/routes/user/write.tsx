import { useTitle } from '@/lib/use-title';
import { WriterOnly } from '../manuscript/writer-only';
import { WriterDesk } from '../writer';

/** /user/write: the "Write" entry of the user's space, the same desk as /writer. */
export default function UserWriteRoute() {
  useTitle('Write');
  return <WriterOnly>{({ userId }) => <WriterDesk userId={userId} eyebrow="Your writing" title="Write" />}</WriterOnly>;
}
