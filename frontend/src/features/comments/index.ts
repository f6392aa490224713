export { CommentsPanel } from './components/CommentsPanel';
export { relativeTime } from './time';
export { canDelete } from './permissions';
export { commentKeys } from './queries';
export type { Comment, CommentPage } from './types';
