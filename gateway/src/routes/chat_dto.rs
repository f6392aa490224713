//! The JSON shapes of the chat routes (Quinn, the book assistant): a turn of the
//! conversation, the recommended books, the moods of the opening panel and a
//! conversation read back. A recommended book is the book as every list shows it
//! ([`BookOut`]) plus how well it fits and why.

use quire_proto::chat::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::books_dto::BookOut;

/// `POST /api/chat`
#[derive(Debug, Deserialize, ToSchema)]
pub struct ChatBody {
    /// What the reader says: not blank, at most 500 characters.
    pub current_input: String,
    /// Made by the client (a UUID): a new id starts a conversation. 1-64 of
    /// `A-Z a-z 0-9 - _`.
    #[schema(pattern = "^[A-Za-z0-9_-]{1,64}$")]
    pub conversation_id: String,
    /// The caller.
    #[schema(format = Uuid)]
    pub uid: String,
}

/// `POST /api/recbooks`
#[derive(Debug, Deserialize, ToSchema)]
pub struct RecBooksBody {
    #[schema(pattern = "^[A-Za-z0-9_-]{1,64}$")]
    pub conversation_id: String,
    /// The caller.
    #[schema(format = Uuid)]
    pub uid: String,
    /// The `query` a chat turn gave, or any words: not blank, at most 500 characters.
    pub query: String,
    /// How many books, 1-20 (default 5).
    #[schema(minimum = 1, maximum = 20)]
    pub limit: Option<u32>,
}

/// What a turn of the conversation was understood as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Intent {
    Greeting,
    Help,
    Thanks,
    Goodbye,
    Search,
    Refine,
    Unclear,
}

impl Intent {
    /// The service's word for the intent; one this gateway does not know yet is shown as
    /// `unclear` (the reply's words still say what Quinn meant).
    fn parse(word: &str) -> Self {
        match word {
            "greeting" => Self::Greeting,
            "help" => Self::Help,
            "thanks" => Self::Thanks,
            "goodbye" => Self::Goodbye,
            "search" => Self::Search,
            "refine" => Self::Refine,
            "unclear" => Self::Unclear,
            other => {
                tracing::warn!(intent = other, "chat service sent an unknown intent");
                Self::Unclear
            }
        }
    }
}

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MessageType {
    User,
    Bot,
}

/// A recommended book: the book as lists show it, with how well it fits and why.
#[derive(Debug, Serialize, ToSchema)]
pub struct RecBookOut {
    #[serde(flatten)]
    pub book: BookOut,
    /// 0-100: how well the book fits the request.
    #[schema(maximum = 100)]
    pub match_percentage: u32,
    /// One line: why this book.
    pub reason: String,
}

/// The recommended books of the service's reply, in order (an entry without its book,
/// which the service never sends, is left out rather than shown empty).
pub fn rec_books(list: Vec<pb::RecommendedBook>) -> Vec<RecBookOut> {
    list.into_iter()
        .filter_map(|r| {
            Some(RecBookOut {
                book: r.book?.into(),
                match_percentage: r.match_percentage.min(100),
                reason: r.reason,
            })
        })
        .collect()
}

/// One message of a conversation.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChatMessageOut {
    #[schema(format = Uuid)]
    pub id: String,
    pub content: String,
    #[serde(rename = "type")]
    pub kind: MessageType,
    /// RFC 3339
    pub timestamp: String,
    /// The books a recommendation message showed, in order; empty for other messages.
    pub books: Vec<RecBookOut>,
}

impl From<pb::Message> for ChatMessageOut {
    fn from(m: pb::Message) -> Self {
        Self {
            id: m.id,
            content: m.content,
            kind: if m.r#type == "user" {
                MessageType::User
            } else {
                MessageType::Bot
            },
            timestamp: m.timestamp,
            books: rec_books(m.books),
        }
    }
}

/// One turn: what Quinn says, and the query to recommend books with when it has one.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChatOut {
    #[schema(pattern = "^[A-Za-z0-9_-]{1,64}$")]
    pub conversation_id: String,
    /// What Quinn says.
    pub reply_user: String,
    /// Present when Quinn has enough to search: the client then calls `/api/recbooks`
    /// with it.
    pub query: Option<String>,
    pub intent: Intent,
    pub user_message: ChatMessageOut,
    pub bot_message: ChatMessageOut,
}

impl From<pb::ChatReply> for ChatOut {
    fn from(r: pb::ChatReply) -> Self {
        Self {
            conversation_id: r.conversation_id,
            reply_user: r.reply_user,
            query: r.query.filter(|q| !q.is_empty()),
            intent: Intent::parse(&r.intent),
            user_message: r.user_message.unwrap_or_default().into(),
            bot_message: r.bot_message.unwrap_or_default().into(),
        }
    }
}

/// A mood of the opening panel.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoodOut {
    /// The mood's name (`cosy`), not a UUID.
    pub id: String,
    /// What the panel shows ("Something cosy").
    pub label: String,
    /// What choosing it sends as the reader's words.
    pub utterance: String,
    /// The genres it suggests.
    pub genres: Vec<String>,
}

/// The opening panel: the moods Quinn understands and the assistant's name.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoodsOut {
    pub assistant_name: String,
    pub moods: Vec<MoodOut>,
}

impl From<pb::MoodList> for MoodsOut {
    fn from(m: pb::MoodList) -> Self {
        Self {
            assistant_name: m.assistant_name,
            moods: m
                .moods
                .into_iter()
                .map(|m| MoodOut {
                    id: m.id,
                    label: m.label,
                    utterance: m.utterance,
                    genres: m.genres,
                })
                .collect(),
        }
    }
}

/// A conversation read back, oldest message first.
#[derive(Debug, Serialize, ToSchema)]
pub struct ConversationOut {
    #[schema(pattern = "^[A-Za-z0-9_-]{1,64}$")]
    pub conversation_id: String,
    pub messages: Vec<ChatMessageOut>,
}

impl From<pb::Conversation> for ConversationOut {
    fn from(c: pb::Conversation) -> Self {
        Self {
            conversation_id: c.conversation_id,
            messages: c.messages.into_iter().map(Into::into).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recommended_book_is_the_list_book_with_its_fit_and_reason() {
        let book = quire_proto::catalog::v1::Book {
            book_id: "0190c2a4-6a6e-7b6e-8d1c-3f4e5a6b7c8d".into(),
            title: "The Clockmaker's Alibi".into(),
            price_cents: 499,
            ..Default::default()
        };
        let out = rec_books(vec![
            pb::RecommendedBook {
                book: Some(book),
                match_percentage: 87,
                reason: "A cosy mystery under $5".into(),
            },
            pb::RecommendedBook::default(),
        ]);
        assert_eq!(out.len(), 1);
        let json = serde_json::to_value(&out[0]).unwrap();
        assert_eq!(json["book_id"], "0190c2a4-6a6e-7b6e-8d1c-3f4e5a6b7c8d");
        assert_eq!(json["id"], json["book_id"]);
        assert_eq!(json["price"], 4.99);
        assert_eq!(json["match_percentage"], 87);
        assert_eq!(json["reason"], "A cosy mystery under $5");
        assert!(json.get("book").is_none(), "flattened: {json}");
    }

    #[test]
    fn a_turn_without_a_query_says_null_and_its_messages_keep_their_kind() {
        let out = ChatOut::from(pb::ChatReply {
            conversation_id: "c-1".into(),
            reply_user: "Hi, I am Quinn".into(),
            query: Some(String::new()),
            intent: "greeting".into(),
            user_message: Some(pb::Message {
                r#type: "user".into(),
                ..Default::default()
            }),
            bot_message: Some(pb::Message {
                r#type: "bot".into(),
                ..Default::default()
            }),
        });
        let json = serde_json::to_value(&out).unwrap();
        assert!(json["query"].is_null(), "{json}");
        assert_eq!(json["intent"], "greeting");
        assert_eq!(json["user_message"]["type"], "user");
        assert_eq!(json["bot_message"]["type"], "bot");
        assert_eq!(Intent::parse("something new"), Intent::Unclear);
    }
}
