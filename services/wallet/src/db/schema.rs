// @generated automatically by Diesel CLI.

diesel::table! {
    accounts (id) {
        id -> Uuid,
        kind -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    campaigns (id) {
        id -> Uuid,
        book_id -> Uuid,
        writer_uid -> Uuid,
        title -> Text,
        goal_cents -> Int8,
        status -> Text,
        deadline -> Timestamptz,
        created_at -> Timestamptz,
        settled_at -> Nullable<Timestamptz>,
        writer_cents -> Int8,
        platform_cents -> Int8,
        transfer_id -> Nullable<Uuid>,
    }
}

diesel::table! {
    entries (id) {
        id -> Int8,
        transfer_id -> Uuid,
        account_id -> Uuid,
        amount_cents -> Int8,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    idempotency_keys (caller_id, key) {
        caller_id -> Uuid,
        key -> Text,
        method -> Text,
        fingerprint -> Text,
        answer -> Nullable<Bytea>,
        top_up_id -> Nullable<Uuid>,
        created_at -> Timestamptz,
        refusal -> Nullable<Text>,
    }
}

diesel::table! {
    invitations (invitee_id) {
        invitee_id -> Uuid,
        inviter_id -> Uuid,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    pending_credits (id) {
        id -> Int8,
        user_id -> Uuid,
        transfer_id -> Uuid,
        amount_cents -> Int8,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    pledges (id) {
        id -> Uuid,
        campaign_id -> Uuid,
        backer_uid -> Uuid,
        amount_cents -> Int8,
        transfer_id -> Uuid,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    rewards (id) {
        id -> Uuid,
        inviter_id -> Uuid,
        invitee_id -> Uuid,
        reason -> Text,
        amount_cents -> Int8,
        transfer_id -> Uuid,
        created_at -> Timestamptz,
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
    top_ups (id) {
        id -> Uuid,
        user_id -> Uuid,
        amount_cents -> Int8,
        kind -> Text,
        status -> Text,
        provider -> Text,
        provider_ref -> Text,
        note -> Text,
        created_by -> Nullable<Uuid>,
        transfer_id -> Nullable<Uuid>,
        created_at -> Timestamptz,
        settled_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    trades (id) {
        id -> Uuid,
        buyer_uid -> Uuid,
        book_id -> Uuid,
        seller_uid -> Uuid,
        title -> Text,
        price_cents -> Int8,
        seller_cents -> Int8,
        platform_cents -> Int8,
        transfer_id -> Nullable<Uuid>,
        created_at -> Timestamptz,
        campaign_id -> Nullable<Uuid>,
    }
}

diesel::table! {
    transfers (id) {
        id -> Uuid,
        kind -> Text,
        memo -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    wallets (user_id) {
        user_id -> Uuid,
        balance_cents -> Int8,
        recharged_cents -> Int8,
        earned_cents -> Int8,
        spent_cents -> Int8,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::joinable!(campaigns -> accounts (id));
diesel::joinable!(campaigns -> transfers (transfer_id));
diesel::joinable!(entries -> accounts (account_id));
diesel::joinable!(entries -> transfers (transfer_id));
diesel::joinable!(idempotency_keys -> top_ups (top_up_id));
diesel::joinable!(pending_credits -> transfers (transfer_id));
diesel::joinable!(pledges -> campaigns (campaign_id));
diesel::joinable!(pledges -> transfers (transfer_id));
diesel::joinable!(rewards -> transfers (transfer_id));
diesel::joinable!(top_ups -> transfers (transfer_id));
diesel::joinable!(trades -> campaigns (campaign_id));
diesel::joinable!(trades -> transfers (transfer_id));
diesel::joinable!(wallets -> accounts (user_id));

diesel::allow_tables_to_appear_in_same_query!(
    accounts,
    campaigns,
    entries,
    idempotency_keys,
    invitations,
    pending_credits,
    pledges,
    rewards,
    settings,
    top_ups,
    trades,
    transfers,
    wallets,
);
