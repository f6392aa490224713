-- Accounts: users, the roles they hold, their invite codes, e-mail verification codes
-- and rotating refresh tokens. E-mails and wallet addresses are stored lowercased.
CREATE TABLE users (
    id             UUID PRIMARY KEY,
    email          TEXT UNIQUE,
    username       TEXT NOT NULL,
    password_hash  TEXT,
    wallet_address TEXT UNIQUE,
    active_role    TEXT NOT NULL DEFAULT 'reader',
    invited_by     UUID REFERENCES users (id),
    avatar_url     TEXT,
    bio            TEXT,
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT users_have_a_login CHECK (email IS NOT NULL OR wallet_address IS NOT NULL)
);
CREATE INDEX users_invited_by ON users (invited_by);
CREATE INDEX users_created_at ON users (created_at DESC);

CREATE TABLE user_roles (
    user_id    UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('reader', 'writer', 'publisher', 'admin')),
    granted_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, role)
);

CREATE TABLE invite_codes (
    code       TEXT PRIMARY KEY,
    owner_id   UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX invite_codes_owner ON invite_codes (owner_id);

ALTER TABLE users ADD COLUMN invite_code_used TEXT REFERENCES invite_codes (code);

CREATE TABLE email_verifications (
    email             TEXT PRIMARY KEY,
    code_hash         TEXT NOT NULL,
    expires_at        TIMESTAMPTZ NOT NULL,
    attempts          INT NOT NULL DEFAULT 0,
    sent_at           TIMESTAMPTZ NOT NULL,
    sends_in_window   INT NOT NULL DEFAULT 1,
    window_started_at TIMESTAMPTZ NOT NULL,
    verified_at       TIMESTAMPTZ
);

CREATE TABLE refresh_tokens (
    id          UUID PRIMARY KEY,
    user_id     UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    family_id   UUID NOT NULL,
    token_hash  TEXT NOT NULL UNIQUE,
    expires_at  TIMESTAMPTZ NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    revoked_at  TIMESTAMPTZ
);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);
