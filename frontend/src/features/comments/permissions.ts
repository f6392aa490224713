import type { User } from '@/lib/api-types';
import type { Comment } from './types';

/**
 * Own comments and, for admins, any. The server's `deletable` is the final word when it
 * is there; the local rule covers replies that do not carry it.
 */
export function canDelete(comment: Comment, user: Pick<User, 'user_id' | 'roles' | 'current_role'> | null): boolean {
  if (!user) return false;
  if (typeof comment.deletable === 'boolean') return comment.deletable;
  if (String(comment.user_id) === String(user.user_id)) return true;
  return user.current_role === 'admin' || (user.roles ?? []).includes('admin');
}
