-- Sign-in through an OpenID Connect provider.
--
-- A sign-in started here and not yet finished: what the browser carries back is the
-- state, stored only as its SHA-256, so a copy of this table cannot finish anyone's
-- sign-in. A row is taken (deleted) by the first finish that names it, and is good for
-- 10 minutes.
CREATE TABLE oidc_logins (
    state_hash    TEXT PRIMARY KEY,
    nonce         TEXT NOT NULL,
    pkce_verifier TEXT NOT NULL,
    redirect_uri  TEXT NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX oidc_logins_created_at ON oidc_logins (created_at);

-- Who a user is at a provider: its issuer and the subject it names them by (stable,
-- unlike the e-mail address). One Quire account per identity.
CREATE TABLE user_identities (
    issuer     TEXT NOT NULL,
    subject    TEXT NOT NULL,
    user_id    UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (issuer, subject)
);
CREATE INDEX user_identities_user ON user_identities (user_id);
