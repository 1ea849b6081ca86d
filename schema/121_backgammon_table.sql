-- The hall's table a backgammon match is played on (NULL: none), so the hall, the table's
-- judge device and the console know what holds a table whatever the discipline.
ALTER TABLE backgammon_matches ADD COLUMN table_no integer;

CREATE INDEX backgammon_matches_table_idx ON backgammon_matches (table_no, position DESC)
WHERE table_no IS NOT NULL;
