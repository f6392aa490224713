// Quinn's server state: the mood table (a query: it is the same for everyone and rarely
// changes) and one conversation's turns (mutations). A turn is POST /api/chat; when the
// reply carries a query, POST /api/recbooks follows and its books join the conversation.
import { useQuery, useMutation } from '@tanstack/react-query';
import { useCallback, useReducer, useRef, useState } from 'react';
import { useMe } from '@/lib/me';
import { getMoods, recommendBooks, sendChat } from './api';
import { conversationReducer, emptyConversation, foundLine, showsMoodPanel, type RetryStep } from './conversation';
import { newConversationId } from './conversation-id';
import { plainError } from './errors';
import { checkChatInput } from './input-rule';

/** What became of an input: sent, or why not. */
export type SendOutcome = 'sent' | 'too-long' | 'empty' | 'busy';

export const DEFAULT_ASSISTANT_NAME = 'Quinn';

/** How many books a recommendation shows. */
export const RECOMMENDATION_LIMIT = 6;

export const chatKeys = {
  moods: ['chat', 'moods'] as const,
};

export function useMoods() {
  return useQuery({ queryKey: chatKeys.moods, queryFn: getMoods, staleTime: 60 * 60_000 });
}

const nowIso = () => new Date().toISOString();

/**
 * One conversation with Quinn for as long as the screen is shown: a fresh id, the message
 * list, whether Quinn is busy, the failure to retry. `send` applies the 500-character rule
 * first: a refused input is not sent.
 */
export function useQuinnConversation(assistantName: string) {
  const me = useMe();
  const uid = me.data?.user_id !== undefined && me.data?.user_id !== null ? String(me.data.user_id) : '';
  const [conversationId] = useState(newConversationId);
  const [state, dispatch] = useReducer(conversationReducer, emptyConversation);
  const seq = useRef(0);
  const localId = (kind: string) => `local-${kind}-${++seq.current}`;

  const chat = useMutation({
    mutationFn: (text: string) => sendChat({ current_input: text, conversation_id: conversationId, uid }),
  });
  const recs = useMutation({
    mutationFn: (query: string) => recommendBooks({ conversation_id: conversationId, uid, query, limit: RECOMMENDATION_LIMIT }),
  });

  const findBooks = useCallback(
    (query: string) => {
      recs.mutate(query, {
        onSuccess: (books) => {
          const list = Array.isArray(books) ? books : [];
          dispatch({ type: 'found', id: localId('found'), text: foundLine(assistantName, list.length), at: nowIso(), books: list });
        },
        onError: (error) =>
          dispatch({ type: 'failed', failure: { message: plainError(error, assistantName, 'recs'), retry: { step: 'recs', query } } }),
      });
    },
    [recs.mutate, assistantName],
  );

  const talk = useCallback(
    (text: string) => {
      const entryId = localId('said');
      dispatch({ type: 'sent', id: entryId, text, at: nowIso() });
      chat.mutate(text, {
        onSuccess: (reply) => {
          dispatch({ type: 'replied', entryId, reply });
          if (reply.query && reply.query.trim()) findBooks(reply.query);
        },
        onError: (error) =>
          dispatch({ type: 'failed', failure: { message: plainError(error, assistantName, 'chat'), retry: { step: 'chat', text, entryId } } }),
      });
    },
    [chat.mutate, findBooks, assistantName],
  );

  const busy = chat.isPending || recs.isPending;

  /** Sends what the reader typed, unless the rule refuses it or Quinn is still busy. */
  const send = useCallback(
    (input: string): SendOutcome => {
      const check = checkChatInput(input);
      if (!check.ok) return check.reason;
      if (busy || !uid) return 'busy';
      talk(check.text);
      return 'sent';
    },
    [busy, uid, talk],
  );

  const retry = useCallback(() => {
    const step: RetryStep | undefined = state.failure?.retry;
    if (!step || busy) return;
    dispatch({ type: 'retrying' });
    if (step.step === 'chat') talk(step.text);
    else findBooks(step.query);
  }, [state.failure, busy, talk, findBooks]);

  return {
    conversationId,
    entries: state.entries,
    failure: state.failure,
    busy,
    /** Quinn knows who is asking (the profile is in). */
    ready: Boolean(uid),
    showMoods: showsMoodPanel(state),
    send,
    retry,
  };
}
