export { CommentsPanel } from './components/CommentsPanel';
export { canDelete } from './permissions';
export { commentKeys } from './queries';
export type { Comment, CommentPage } from './types';
