-- « Seigneur agile » — the lord may also step one square diagonally inside the castle.
--
-- A worked example of adding a move with hooks (`variants/README.md`, "Adding a move"). The
-- house rule Veillée ships, `siege/seigneur-agile.lua`, is the same rule played inside the
-- game: its `setup` calls Siège's `nimble_lord` command, so simulations and bots never leave
-- the plugin (a test plays both on the same random games). This file is not offered as a
-- house rule; copy it into your variants folder to try it or start your own.
--
-- In the plain rules the lord moves two or three squares along a diagonal (SG-L1) or steps
-- from one crown to the other (SG-L2). Here it may also step a single square diagonally,
-- onto an empty castle square or onto a knight, which it then captures (as SG-L3). The
-- special rule still binds: while SG-R applies, the lord does not move.
--
-- How: `add_actions` offers the new steps to the defender as ordinary actions (same ids as
-- the game's moves, `d6-c5`, with a click path: the lord, then the square), and
-- `play_action` plays the one chosen with Siège's `move_piece` command, which moves the lord
-- as a real move (capture, counts, the turn passes). `seats` says the hooks are about the
-- defender's turns only, and `max_added` that a turn gains at most four steps: a simulation
-- then plays the attacker's moves, and most of the defender's, inside the plugin, and asks
-- this script only when its random draw falls on one of the (at most four) added steps.
-- `filter_actions` takes away the `pass` the plain game offers a defender whose only moves
-- are these steps (a player with a move may not pass, SG-E3); a filter is asked at every
-- defender's listing, so simulations stop there.

local DEFENDER = 1
local COLUMNS = "abcdefgh"
-- Column and rank steps, in the order the game lists its own lord's diagonals.
local DIAGONALS = { { -1, 1 }, { 1, 1 }, { -1, -1 }, { 1, -1 } }

-- The castle is c3–f6: columns 3 to 6 (a = 1), ranks 3 to 6.
local function in_castle(col, rank)
  return col >= 3 and col <= 6 and rank >= 3 and rank <= 6
end

local function square(col, rank)
  return string.sub(COLUMNS, col, col) .. rank
end

return {
  id = "seigneur-agile",
  name = { fr = "Seigneur agile", en = "Nimble lord" },
  description = {
    fr = "Le seigneur peut aussi faire un pas d'une case en diagonale dans le château.",
    en = "The lord may also step one square diagonally inside the castle.",
  },
  game = "siege",
  version = "1.0.0",
  changes = {
    {
      fr = "Le seigneur peut aussi avancer ou reculer d'une seule case en diagonale, sans quitter le château, sur une case vide ou sur un chevalier qu'il prend (SG-L1, SG-L3).",
      en = "The lord may also step a single square diagonally, staying in the castle, onto an empty square or onto a knight, which it takes (SG-L1, SG-L3).",
    },
  },

  seats = { DEFENDER },
  max_added = 4, -- one step along each diagonal, at most

  add_actions = function(ctx, seat)
    if seat ~= DEFENDER or ctx.game.query("special_rule_applies") then
      return
    end
    local at = ctx.game.query("where_is", { piece = "lord" })
    if at == nil then
      return -- not placed yet, or taken
    end
    local col = string.find(COLUMNS, string.sub(at, 1, 1), 1, true)
    local rank = tonumber(string.sub(at, 2))
    local added = {}
    for _, d in ipairs(DIAGONALS) do
      local c, r = col + d[1], rank + d[2]
      if in_castle(c, r) then
        local to = square(c, r)
        local there = ctx.game.query("piece_at", { square = to })
        -- Knights are k1–k4: the lord takes them; it never lands on a soldier.
        if there == nil or string.sub(there, 1, 1) == "k" then
          local takes = there ~= nil
          added[#added + 1] = {
            id = at .. "-" .. to,
            label = {
              fr = "Seigneur " .. at .. " → " .. to .. (takes and " prend le chevalier" or "") .. " (pas agile)",
              en = "Lord " .. at .. " → " .. to .. (takes and " takes the knight" or "") .. " (nimble step)",
            },
            -- Scene cells: column 0 = a, row 0 = rank 6 (see the game's README).
            path = {
              { kind = "piece", id = "lord" },
              { kind = "cell", board = "board", col = c - 1, row = 6 - r },
            },
          }
        end
      end
    end
    return added
  end,

  filter_actions = function(ctx, seat, actions)
    if #actions < 2 then
      return -- nil keeps the list
    end
    local kept = {}
    for _, action in ipairs(actions) do
      if action.id ~= "pass" then
        kept[#kept + 1] = action.id
      end
    end
    return kept
  end,

  play_action = function(ctx, seat, action)
    local from, to = string.match(action.id, "^(%a%d)%-(%a%d)$")
    ctx.game.command("move_piece", { from = from, to = to })
    -- A command tells nothing: the move's event, as the game's own moves have, is its label,
    -- and the game's end, when the step ended it (the lord took the last knight).
    ctx.event(action.label)
    local status = ctx.game.status()
    if status.state == "finished" then
      ctx.event(status.outcome.reason)
    end
  end,
}
