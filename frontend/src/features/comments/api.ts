import { api } from '@/lib/api-client';
import { COMMENTS_PAGE_SIZE, type Comment, type CommentPage } from './types';

const enc = encodeURIComponent;

export const listComments = (bookId: string, page: number, pageSize = COMMENTS_PAGE_SIZE) =>
  api.get<CommentPage>(`/books/${enc(bookId)}/comments`, { params: { page, page_size: pageSize } });

export const postComment = (bookId: string, content: string) =>
  api.post<Comment>(`/books/${enc(bookId)}/comments`, { json: { content } });

export const deleteComment = (id: string) => api.delete<{ deleted: boolean }>(`/comments/${enc(id)}`);
