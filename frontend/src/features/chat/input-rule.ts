// The chat input rule (spec: at most 500 characters). Characters are Unicode scalar values,
// as the server counts them, so an emoji is one character, not two UTF-16 units.

export const CHAT_INPUT_MAX = 500;
export const INPUT_TOO_LONG = 'Input exceeds 500 characters limit';

/** How many characters the text has, as the server counts them. */
export function chatInputLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export type InputCheck = { ok: true; text: string } | { ok: false; reason: 'empty' | 'too-long' };

/**
 * Whether the text may be sent, and what is sent (trimmed). Over the limit it is refused
 * before any request; an empty (or blank) input is not sent either.
 */
export function checkChatInput(text: string): InputCheck {
  if (chatInputLength(text) > CHAT_INPUT_MAX) return { ok: false, reason: 'too-long' };
  const trimmed = text.trim();
  if (!trimmed) return { ok: false, reason: 'empty' };
  return { ok: true, text: trimmed };
}
