// @generated automatically by Diesel CLI.

diesel::table! {
    band_keys (band_key, manuscript_id) {
        band_key -> Int8,
        manuscript_id -> Uuid,
    }
}

diesel::table! {
    campaigns (campaign_id) {
        campaign_id -> Uuid,
        book_id -> Uuid,
        writer_id -> Uuid,
        status -> Text,
        pledged_cents -> Int8,
        writer_cents -> Int8,
        settled_at -> Timestamptz,
    }
}

diesel::table! {
    chapters (manuscript_id, chapter_index) {
        manuscript_id -> Uuid,
        chapter_index -> Int4,
        title -> Text,
        words -> Int8,
        body -> Text,
    }
}

diesel::table! {
    genre_versions (genre) {
        genre -> Text,
        version -> Int8,
    }
}

diesel::table! {
    manuscript_files (manuscript_id, file_index) {
        manuscript_id -> Uuid,
        file_index -> Int4,
        file_name -> Text,
        format -> Text,
        object_key -> Text,
        size_bytes -> Int8,
        sha256 -> Text,
    }
}

diesel::table! {
    manuscripts (id) {
        id -> Uuid,
        writer_id -> Uuid,
        book_id -> Uuid,
        state -> Text,
        split -> Text,
        title -> Text,
        language -> Text,
        genre -> Text,
        words -> Int8,
        chapter_count -> Int4,
        overall_score -> Float8,
        ai_probability -> Float8,
        text_sha256 -> Text,
        signature -> Bytea,
        report -> Jsonb,
        book_listed -> Bool,
        book_version -> Int8,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    sales (trade_id) {
        trade_id -> Uuid,
        book_id -> Uuid,
        seller_id -> Uuid,
        price_cents -> Int8,
        seller_cents -> Int8,
        campaign_id -> Nullable<Uuid>,
        completed_at -> Timestamptz,
    }
}

diesel::table! {
    shop_books (book_id) {
        book_id -> Uuid,
        title -> Text,
        genre -> Text,
        pages -> Int4,
        price_cents -> Int8,
        writer_id -> Nullable<Uuid>,
        publisher_id -> Nullable<Uuid>,
        listed -> Bool,
        published_at -> Nullable<Timestamptz>,
        version -> Int8,
    }
}

diesel::table! {
    upload_progress (user_id, upload_id) {
        user_id -> Uuid,
        upload_id -> Uuid,
        step -> Text,
        step_index -> Int4,
        steps_total -> Int4,
        done -> Bool,
        failed -> Bool,
        message -> Text,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    uploads (id) {
        id -> Uuid,
        writer_id -> Uuid,
        object_keys -> Array<Nullable<Text>>,
        created_at -> Timestamptz,
    }
}

diesel::joinable!(band_keys -> manuscripts (manuscript_id));
diesel::joinable!(chapters -> manuscripts (manuscript_id));
diesel::joinable!(manuscript_files -> manuscripts (manuscript_id));

diesel::allow_tables_to_appear_in_same_query!(
    band_keys,
    campaigns,
    chapters,
    genre_versions,
    manuscript_files,
    manuscripts,
    sales,
    shop_books,
    upload_progress,
    uploads,
);
