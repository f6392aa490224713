// @generated automatically by Diesel CLI.

diesel::table! {
    email_codes (email, purpose) {
        email -> Text,
        purpose -> Text,
        code_hash -> Text,
        expires_at -> Timestamptz,
        attempts -> Int4,
        sent_at -> Timestamptz,
        sends_in_window -> Int4,
        window_started_at -> Timestamptz,
        verified_at -> Nullable<Timestamptz>,
        used_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    email_verifications (email) {
        email -> Text,
        code_hash -> Text,
        expires_at -> Timestamptz,
        attempts -> Int4,
        sent_at -> Timestamptz,
        sends_in_window -> Int4,
        window_started_at -> Timestamptz,
        verified_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    invite_codes (code) {
        code -> Text,
        owner_id -> Uuid,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    oidc_logins (state_hash) {
        state_hash -> Text,
        nonce -> Text,
        pkce_verifier -> Text,
        redirect_uri -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    refresh_tokens (id) {
        id -> Uuid,
        user_id -> Uuid,
        family_id -> Uuid,
        token_hash -> Text,
        expires_at -> Timestamptz,
        created_at -> Timestamptz,
        revoked_at -> Nullable<Timestamptz>,
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
    user_identities (issuer, subject) {
        issuer -> Text,
        subject -> Text,
        user_id -> Uuid,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    user_roles (user_id, role) {
        user_id -> Uuid,
        role -> Text,
        granted_at -> Timestamptz,
    }
}

diesel::table! {
    users (id) {
        id -> Uuid,
        email -> Nullable<Text>,
        username -> Text,
        password_hash -> Nullable<Text>,
        wallet_address -> Nullable<Text>,
        active_role -> Text,
        invited_by -> Nullable<Uuid>,
        avatar_url -> Nullable<Text>,
        bio -> Nullable<Text>,
        created_at -> Timestamptz,
        invite_code_used -> Nullable<Text>,
        disabled_at -> Nullable<Timestamptz>,
    }
}

diesel::joinable!(refresh_tokens -> users (user_id));
diesel::joinable!(user_identities -> users (user_id));
diesel::joinable!(user_roles -> users (user_id));

diesel::allow_tables_to_appear_in_same_query!(
    email_codes,
    email_verifications,
    invite_codes,
    oidc_logins,
    refresh_tokens,
    settings,
    user_identities,
    user_roles,
    users,
);
