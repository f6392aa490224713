DROP TABLE refresh_tokens;
DROP TABLE email_verifications;
ALTER TABLE users DROP COLUMN invite_code_used;
DROP TABLE invite_codes;
DROP TABLE user_roles;
DROP TABLE users;
