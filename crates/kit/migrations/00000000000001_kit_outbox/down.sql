DROP TABLE processed_events;
DROP TABLE outbox;
