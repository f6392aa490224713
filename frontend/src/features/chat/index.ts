export { ChatScreen, REFINEMENTS, type ChatScreenProps, type ChatStarter } from './components/ChatScreen';
export { CHAT_INPUT_MAX, INPUT_TOO_LONG, chatInputLength, checkChatInput } from './input-rule';
export { conversationReducer, emptyConversation, foundLine, showsMoodPanel } from './conversation';
export { chatKeys, useMoods } from './queries';
export type { ChatMessage, ChatReply, Mood, MoodTable, RecBook } from './types';
