// Quinn's REST calls. Chat and recommendation failures are shown in the conversation, in
// plain words with a retry, so they raise no toast (a 401 still ends the session).
import { api } from '@/lib/api-client';
import type { ChatReply, ChatRequest, MoodTable, RecBook, RecBooksRequest } from './types';

export const getMoods = () => api.get<MoodTable>('/chat/moods');

export const sendChat = (body: ChatRequest) => api.post<ChatReply>('/chat', { json: body, notify: false });

export const recommendBooks = (body: RecBooksRequest) =>
  api.post<RecBook[]>('/recbooks', { json: body, notify: false });
