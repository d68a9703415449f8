-- « Partie chronométrée » — the competition clock of the original rules (XI.2).
--
-- Three minutes of thinking a turn; a player who goes over loses one point. The plugin never
-- sees a clock: the host's turn timer reports the end of each turn to `on_turn_end` with the
-- seconds it took (logged with the game, and reported again on replay, so a replay penalises
-- exactly the same turns). Over 180 seconds, the script takes one point off the side of the
-- seat that played, with Château Noir's `penalise` command: like a captain's debt (CN-S1), a
-- side below zero shows 0 and owes the point. The scene's scores show the side's points and a
-- « Pénalités de temps » line.

local LIMIT_SECONDS = 180 -- three minutes (XI.2)
local PENALTY = 1 -- points lost for going over

return {
  id = "partie-chronometree",
  name = { fr = "Partie chronométrée", en = "Timed game" },
  description = {
    fr = "Trois minutes de réflexion par tour ; qui les dépasse perd un point (règle XI.2 de l'original).",
    en = "Three minutes of thinking a turn; whoever goes over loses one point (rule XI.2 of the original).",
  },
  game = "chateau-noir",
  version = "1.0.0",
  changes = {
    {
      fr = "Chaque tour est chronométré : au-delà de trois minutes, le camp du joueur perd un point (une dette sous zéro, comme pour un capitaine pris).",
      en = "Every turn is timed: over three minutes, the player's side loses one point (a debt below zero, as for a captured captain).",
    },
  },

  on_turn_end = function(ctx, seat, elapsed_seconds)
    if elapsed_seconds <= LIMIT_SECONDS then
      return
    end
    if ctx.game.status().state == "finished" then
      return
    end
    local points = ctx.game.command("penalise", { seat = seat, points = PENALTY })
    local minutes = math.floor(elapsed_seconds / 60)
    local seconds = math.floor(elapsed_seconds - minutes * 60)
    local took = string.format("%d min %02d s", minutes, seconds)
    ctx.event({
      fr = "Partie chronométrée : le joueur " .. (seat + 1) .. " a réfléchi " .. took
        .. " (plus de 3 min) et perd un point (score : " .. points .. ")",
      en = "Timed game: player " .. (seat + 1) .. " took " .. took
        .. " (over 3 min) and loses a point (score: " .. points .. ")",
    })
  end,
}
