-- What the test consumer changes: one counter per event key.
CREATE TABLE counters (key TEXT PRIMARY KEY, n INT NOT NULL);
