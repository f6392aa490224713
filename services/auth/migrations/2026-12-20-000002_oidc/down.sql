DROP TABLE user_identities;
DROP TABLE oidc_logins;
