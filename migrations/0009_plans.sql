-- The player's plan in a game (`ccmail plan`): private conditional replies, never sent.
-- `plan` is the partner's expected move, our reply, the next expected move, … as UCI moves
-- separated by spaces, '' for none; `plan_from` the ply the first of them is expected as.
ALTER TABLE games ADD COLUMN plan TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN plan_from INTEGER NOT NULL DEFAULT 0;
