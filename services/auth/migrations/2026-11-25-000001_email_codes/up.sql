-- E-mail codes for every purpose: registering an address, resetting a forgotten password.
-- One row per address and purpose, so a code mailed for one purpose never serves the other
-- and each purpose keeps its own resend limits. `used_at` marks a code spent by a password
-- reset (a registration forgets its code instead).
--
-- Expand step: the codes of email_verifications move here with the purpose 'register';
-- that table stays until no running auth reads it and a later migration drops it.
CREATE TABLE email_codes (
    email             TEXT NOT NULL,
    purpose           TEXT NOT NULL CHECK (purpose IN ('register', 'password_reset')),
    code_hash         TEXT NOT NULL,
    expires_at        TIMESTAMPTZ NOT NULL,
    attempts          INT NOT NULL DEFAULT 0,
    sent_at           TIMESTAMPTZ NOT NULL,
    sends_in_window   INT NOT NULL DEFAULT 1,
    window_started_at TIMESTAMPTZ NOT NULL,
    verified_at       TIMESTAMPTZ,
    used_at           TIMESTAMPTZ,
    PRIMARY KEY (email, purpose)
);

INSERT INTO email_codes (email, purpose, code_hash, expires_at, attempts, sent_at,
                         sends_in_window, window_started_at, verified_at)
SELECT email, 'register', code_hash, expires_at, attempts, sent_at, sends_in_window,
       window_started_at, verified_at
FROM email_verifications;
