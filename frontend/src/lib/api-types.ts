// Request and reply shapes of the REST surface, derived from the types generated from the
// gateway's OpenAPI document (`make openapi` regenerates api-schema.d.ts). Only what the
// document cannot say is narrowed here: the role names.
import type { components } from './api-schema';

type Schemas = components['schemas'];

export type Role = 'reader' | 'writer' | 'publisher' | 'admin';

export type User = Omit<Schemas['UserOut'], 'roles' | 'current_role'> & {
  roles: Role[];
  current_role: Role;
};

export type LoginReply = Omit<Schemas['TokenOut'], 'user'> & { user: User };

export type Paged<T> = Omit<Schemas['UserPageOut'], 'result'> & {
  result: T[];
  /** False when `total` is a lower bound (the shop's filtered lists: BookPageOut). */
  total_exact?: boolean;
};

export type InviteCode = Schemas['InviteCodeOut'];

// The wallet. Money is a decimal with at most two places (12.5 is $12.50). Narrowed: the
// kinds, states, reasons and sides the document only describes in words.
export type Wallet = Schemas['WalletOut'];
export type TopUpKind = 'recharge' | 'top_up';
export type TopUpStatus = 'settled' | 'pending' | 'failed';
export type TopUpRecord = Omit<Schemas['TopUpRecordOut'], 'kind' | 'status'> & { kind: TopUpKind; status: TopUpStatus };
export type Trade = Schemas['TradeOut'];
export type TradeRecord = Omit<Schemas['TradeRecordOut'], 'role'> & { role?: 'bought' | 'sold' | null };
export type RewardReason = 'registered' | 'first_purchase';
export type Reward = Omit<Schemas['RewardOut'], 'reason'> & { reason: RewardReason };
export type RewardPage = Omit<Schemas['RewardPageOut'], 'result'> & { result: Reward[] };
export type WalletReply = Schemas['WalletReplyOut'];
export type RechargeReply = Omit<Schemas['RechargeOut'], 'record'> & { record: TopUpRecord };
export type ConsumeReply = Schemas['ConsumeOut'];

// The catalog (books, search, shelves, settings). Narrowed: a book's format.
export type BookFormat = 'epub' | 'pdf' | 'txt';
export type Book = Omit<Schemas['BookOut'], 'format'> & { format: BookFormat };
export type BookPage = Omit<Schemas['BookPageOut'], 'result'> & { result: Book[] };
export type SearchHit = Omit<Schemas['SearchHitOut'], 'format'> & { format: BookFormat };
export type SearchReply = Omit<Schemas['SearchOut'], 'result'> & { result: SearchHit[] };
export type TocEntry = Schemas['TocEntryOut'];
export type PublishStatus = Schemas['PublishStatusOut'];
export type FavouriteState = Schemas['FavouriteOut'];
export type Publisher = Schemas['PublisherOut'];
export type ShelfBook = Schemas['ShelfBookOut'];
export type Shelf = Schemas['ShelfOut'];
export type Settings = Schemas['SettingsOut'];
export type Takedown = Schemas['TakedownBody'];

// Manuscripts: a writer's uploads, their analysis and the AI check. Narrowed: a list row's
// state, which the document only describes in words.
export type Manuscript = Schemas['ManuscriptOut'];
export type ManuscriptRow = Omit<Schemas['ManuscriptItemOut'], 'state'> & { state: 'analysed' | 'published' };
export type ManuscriptPage = Omit<Schemas['ManuscriptPageOut'], 'items'> & { items: ManuscriptRow[] };
export type AnalysisProgress = Schemas['UploadProgressOut'];
export type AiCheck = Schemas['AiCheckOut'];
