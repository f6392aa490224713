use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::manuscripts;

/// While catalog makes the book.
pub const STATE_CREATING: &str = "creating";
/// The book exists; the manuscript is the writer's.
pub const STATE_ANALYSED: &str = "analysed";

pub const SPLIT_MANUSCRIPT: &str = "manuscript";
pub const SPLIT_CHAPTERS: &str = "chapters";

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = manuscripts)]
pub struct ManuscriptRow {
    pub id: Uuid,
    pub writer_id: Uuid,
    pub book_id: Uuid,
    pub state: String,
    pub split: String,
    pub title: String,
    pub language: String,
    pub genre: String,
    pub words: i64,
    pub chapter_count: i32,
    pub overall_score: f64,
    pub ai_probability: f64,
    pub text_sha256: String,
    pub signature: Vec<u8>,
    pub report: serde_json::Value,
    pub book_listed: bool,
    pub book_version: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// A row of the writer's list: everything but the text's fingerprints and the report.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = manuscripts)]
pub struct ManuscriptListed {
    pub id: Uuid,
    pub book_id: Uuid,
    pub title: String,
    pub genre: String,
    pub words: i64,
    pub chapter_count: i32,
    pub overall_score: f64,
    pub ai_probability: f64,
    pub book_listed: bool,
    pub created_at: DateTime<Utc>,
}
