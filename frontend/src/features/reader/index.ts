export { ReaderView } from './components/ReaderView';
export { ContinueReading } from './components/ContinueReading';
export { BookList, relativeDay } from './components/BookList';
export { useFavourites, useHistory, readerKeys } from './queries';
export type { Book, Bookmark, HistoryEntry, TocEntry, Progress } from './types';
