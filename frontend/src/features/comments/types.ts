// Comment shapes, from the types generated from the gateway's OpenAPI document.
import type { components } from '@/lib/api-schema';

type Schemas = components['schemas'];

/** deletable: the server's word on whether the caller may delete it (own, or admin). */
export type Comment = Omit<Schemas['CommentOut'], 'deletable'> & { deletable?: boolean };

export type CommentPage = Omit<Schemas['CommentPageOut'], 'result'> & { result: Comment[] };

export const COMMENT_MAX = 2000;
export const COMMENTS_PAGE_SIZE = 10;
