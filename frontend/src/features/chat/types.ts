// Quinn's shapes on the wire (the REST contract of the chat routes), from the types
// generated from the gateway's OpenAPI document.
import type { components } from '@/lib/api-schema';

type Schemas = components['schemas'];

export type ChatIntent = Schemas['Intent'];

/** A book as lists show it, with how well it fits what was asked (0-100) and why, in one line. */
export type RecBook = Schemas['RecBookOut'];

export type ChatMessage = Schemas['ChatMessageOut'];

export type ChatRequest = Schemas['ChatBody'];

/** A turn: what Quinn says, and the query a recommendation call follows with when present. */
export type ChatReply = Schemas['ChatOut'];

export type RecBooksRequest = Schemas['RecBooksBody'];

/** A mood of the opening panel: what it shows (label) and what picking it says (utterance). */
export type Mood = Schemas['MoodOut'];

export type MoodTable = Schemas['MoodsOut'];
