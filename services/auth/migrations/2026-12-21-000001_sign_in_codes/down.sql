DELETE FROM email_codes WHERE purpose = 'sign_in';
ALTER TABLE email_codes DROP CONSTRAINT email_codes_purpose_check;
ALTER TABLE email_codes ADD CONSTRAINT email_codes_purpose_check
    CHECK (purpose IN ('register', 'password_reset'));
