-- Codes mailed for signing in past the guessing limits of a new address: their own
-- purpose, so a sign-in code never resets a password and keeps its own resend limits.
ALTER TABLE email_codes DROP CONSTRAINT email_codes_purpose_check;
ALTER TABLE email_codes ADD CONSTRAINT email_codes_purpose_check
    CHECK (purpose IN ('register', 'password_reset', 'sign_in'));
