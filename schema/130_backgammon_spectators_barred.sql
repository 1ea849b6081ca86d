-- A backgammon match whose spectators the TD barred at a player's request (KSI 1.6.4): the
-- spectators' lists, the venue screen and the match's public reads leave it out while true.
ALTER TABLE backgammon_matches ADD COLUMN spectators_barred boolean NOT NULL DEFAULT false;
