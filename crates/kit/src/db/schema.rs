// @generated automatically by Diesel CLI.

diesel::table! {
    outbox (seq) {
        seq -> Int8,
        event_id -> Uuid,
        topic -> Text,
        event_key -> Text,
        event_type -> Text,
        source -> Text,
        payload -> Bytea,
        traceparent -> Nullable<Text>,
        created_at -> Timestamptz,
        published_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    processed_events (consumer, event_id) {
        consumer -> Text,
        event_id -> Uuid,
        processed_at -> Timestamptz,
    }
}

diesel::table! {
    audit_log (id) {
        id -> Uuid,
        seq -> Int8,
        at -> Timestamptz,
        service -> Text,
        actor_id -> Uuid,
        action -> Text,
        target -> Text,
        before -> Jsonb,
        after -> Jsonb,
        prev_hash -> Bytea,
        hash -> Bytea,
    }
}

diesel::allow_tables_to_appear_in_same_query!(audit_log, outbox, processed_events,);
