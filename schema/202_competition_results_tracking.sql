-- The competition results processor's position: match ends turned into competition results
-- and competition calls turned into match streams (idempotent by command_id; not a read model).
INSERT INTO projection_tracking (name, position) VALUES ('competition_results', 0)
ON CONFLICT (name) DO NOTHING;
