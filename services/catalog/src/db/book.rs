use chrono::{DateTime, NaiveDate, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::books;

#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = books)]
pub struct BookRow {
    pub id: Uuid,
    pub title: String,
    pub authors: Vec<Option<String>>,
    pub author: String,
    pub cover_key: Option<String>,
    pub price_cents: i64,
    pub publish_date: Option<NaiveDate>,
    pub created_time: DateTime<Utc>,
    pub published_at: Option<DateTime<Utc>>,
    pub short_summary: String,
    pub long_summary: String,
    pub tags: Vec<Option<String>>,
    pub genre: String,
    pub assessment_score: f64,
    pub upload_writer_id: Uuid,
    pub publisher_id: Option<Uuid>,
    pub language: String,
    pub writer_on: bool,
    pub taken_down: bool,
    pub taken_down_reason: String,
    pub updated_at: DateTime<Utc>,
    pub version: i64,
    /// Readers' ratings: how many, and the sum of their stars (see `ratings`).
    pub rating_count: i32,
    pub rating_sum: i64,
}

impl BookRow {
    /// In the shop: its writer switched it on and no admin took it down.
    pub fn listed(&self) -> bool {
        self.writer_on && !self.taken_down
    }
}

#[derive(Debug, Insertable)]
#[diesel(table_name = books)]
pub struct NewBook {
    pub id: Uuid,
    pub title: String,
    pub authors: Vec<String>,
    pub author: String,
    pub cover_key: Option<String>,
    pub price_cents: i64,
    pub publish_date: Option<NaiveDate>,
    pub created_time: DateTime<Utc>,
    pub published_at: Option<DateTime<Utc>>,
    pub short_summary: String,
    pub long_summary: String,
    pub tags: Vec<String>,
    pub genre: String,
    pub assessment_score: f64,
    pub upload_writer_id: Uuid,
    pub publisher_id: Option<Uuid>,
    pub language: String,
    pub writer_on: bool,
    pub updated_at: DateTime<Utc>,
    pub version: i64,
}

/// The fields an update may change; `None` keeps the stored value.
#[derive(Debug, Default, AsChangeset)]
#[diesel(table_name = books)]
pub struct BookChanges {
    pub title: Option<String>,
    pub authors: Option<Vec<String>>,
    pub author: Option<String>,
    pub cover_key: Option<Option<String>>,
    pub price_cents: Option<i64>,
    pub publish_date: Option<Option<NaiveDate>>,
    pub published_at: Option<Option<DateTime<Utc>>>,
    pub short_summary: Option<String>,
    pub long_summary: Option<String>,
    pub tags: Option<Vec<String>>,
    pub genre: Option<String>,
    pub assessment_score: Option<f64>,
    pub writer_on: Option<bool>,
    pub taken_down: Option<bool>,
    pub taken_down_reason: Option<String>,
    pub updated_at: Option<DateTime<Utc>>,
    pub version: Option<i64>,
}
