// @generated automatically by Diesel CLI.

diesel::table! {
    book_vectors (book_id) {
        book_id -> Uuid,
        text_sha -> Text,
        vector -> Bytea,
    }
}

diesel::table! {
    books (book_id) {
        book_id -> Uuid,
        version -> Int8,
        listed -> Bool,
        genre -> Text,
        snapshot -> Bytea,
    }
}

diesel::table! {
    conversation_shown (conversation_id, book_id) {
        conversation_id -> Text,
        book_id -> Uuid,
    }
}

diesel::table! {
    conversations (id) {
        id -> Text,
        owner -> Uuid,
        request -> Nullable<Jsonb>,
        query -> Nullable<Text>,
        last_shown -> Jsonb,
        refines -> Bool,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    messages (id) {
        id -> Uuid,
        conversation_id -> Text,
        kind -> Text,
        content -> Text,
        books -> Jsonb,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    purchases (buyer, book_id) {
        buyer -> Uuid,
        book_id -> Uuid,
    }
}

diesel::table! {
    sales (book_id) {
        book_id -> Uuid,
        count -> Int4,
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
    trades (trade_id) {
        trade_id -> Text,
        buyer -> Uuid,
        book_id -> Uuid,
    }
}

diesel::joinable!(conversation_shown -> conversations (conversation_id));
diesel::joinable!(messages -> conversations (conversation_id));

diesel::allow_tables_to_appear_in_same_query!(
    book_vectors,
    books,
    conversation_shown,
    conversations,
    messages,
    purchases,
    sales,
    settings,
    trades,
);
