-- Judge tokens expire (issue 11, point 5; ASVS V7.3): the end of the competition day by
-- default, or TABLESIDE_JUDGE_TOKEN_HOURS after issue. Tokens issued before this migration
-- get a day from their issue, so none of them lives on indefinitely.
ALTER TABLE judge_tokens ADD COLUMN expires_at timestamptz;
UPDATE judge_tokens SET expires_at = issued_at + interval '24 hours' WHERE expires_at IS NULL;
ALTER TABLE judge_tokens ALTER COLUMN expires_at SET NOT NULL;
