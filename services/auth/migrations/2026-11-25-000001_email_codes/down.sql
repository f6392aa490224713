DROP TABLE email_codes;
