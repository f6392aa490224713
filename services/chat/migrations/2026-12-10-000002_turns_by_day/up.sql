-- The admin's figures count the readers' turns (their messages) per day over up to a
-- year: this index holds those alone, by time, so the count reads it and no message rows.
CREATE INDEX messages_turns ON messages (created_at) WHERE kind = 'user';
