DROP INDEX messages_turns;
