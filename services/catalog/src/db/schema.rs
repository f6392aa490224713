// @generated automatically by Diesel CLI.

diesel::table! {
    book_files (book_id, file_index) {
        book_id -> Uuid,
        file_index -> Int4,
        format -> Text,
        object_key -> Text,
        size_bytes -> Int8,
        sha256 -> Text,
        total_weight -> Int8,
        chapter_count -> Int4,
    }
}

diesel::table! {
    bookmarks (id) {
        id -> Uuid,
        user_id -> Uuid,
        book_id -> Uuid,
        cfi -> Text,
        title -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    books (id) {
        id -> Uuid,
        title -> Text,
        authors -> Array<Nullable<Text>>,
        author -> Text,
        cover_key -> Nullable<Text>,
        price_cents -> Int8,
        publish_date -> Nullable<Date>,
        created_time -> Timestamptz,
        published_at -> Nullable<Timestamptz>,
        short_summary -> Text,
        long_summary -> Text,
        tags -> Array<Nullable<Text>>,
        genre -> Text,
        assessment_score -> Float8,
        upload_writer_id -> Uuid,
        publisher_id -> Nullable<Uuid>,
        language -> Text,
        writer_on -> Bool,
        taken_down -> Bool,
        taken_down_reason -> Text,
        updated_at -> Timestamptz,
        version -> Int8,
        rating_count -> Int4,
        rating_sum -> Int8,
        rating_rank -> Float8,
    }
}

diesel::table! {
    book_ratings (user_id, book_id) {
        user_id -> Uuid,
        book_id -> Uuid,
        stars -> Int2,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    chapters (book_id, file_index, chapter_index) {
        book_id -> Uuid,
        file_index -> Int4,
        chapter_index -> Int4,
        title -> Text,
        href -> Text,
        weight -> Int8,
    }
}

diesel::table! {
    comments (id) {
        id -> Uuid,
        book_id -> Uuid,
        user_id -> Uuid,
        content -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    favourites (user_id, book_id) {
        user_id -> Uuid,
        book_id -> Uuid,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    listed_totals (scope) {
        scope -> Text,
        books -> Int8,
    }
}

diesel::table! {
    publish_status (user_id, book_id) {
        user_id -> Uuid,
        book_id -> Uuid,
        role -> Text,
        is_on -> Bool,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    purchases (user_id, book_id) {
        user_id -> Uuid,
        book_id -> Uuid,
        trade_id -> Uuid,
        price_cents -> Int8,
        purchased_at -> Timestamptz,
    }
}

diesel::table! {
    reading_history (user_id, book_id) {
        user_id -> Uuid,
        book_id -> Uuid,
        last_read_at -> Timestamptz,
        percent -> Float8,
    }
}

diesel::table! {
    reading_progress (user_id, book_id) {
        user_id -> Uuid,
        book_id -> Uuid,
        position -> Text,
        percent -> Float8,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    settings (key) {
        key -> Text,
        value -> Text,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    user_names (user_id) {
        user_id -> Uuid,
        username -> Text,
    }
}

diesel::joinable!(book_files -> books (book_id));
diesel::joinable!(book_ratings -> books (book_id));
diesel::joinable!(bookmarks -> books (book_id));
diesel::joinable!(comments -> books (book_id));
diesel::joinable!(favourites -> books (book_id));
diesel::joinable!(publish_status -> books (book_id));
diesel::joinable!(reading_history -> books (book_id));
diesel::joinable!(reading_progress -> books (book_id));

diesel::allow_tables_to_appear_in_same_query!(
    book_files,
    book_ratings,
    bookmarks,
    books,
    chapters,
    comments,
    favourites,
    listed_totals,
    publish_status,
    purchases,
    reading_history,
    reading_progress,
    settings,
    user_names,
);
