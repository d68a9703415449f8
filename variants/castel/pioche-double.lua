-- « Pioche double » — drawing takes the top two cards of one's pile.
--
-- In the plain rules, « piocher » takes the top card of one's own pile (CA-T1). Here the
-- same action takes a second card too, while the pile has one: piles empty twice as fast,
-- hands fill up, and CA-E1 (no card in hand nor in the pile) comes within reach by placing.
--
-- How: `actions` names the draw only, so `after_action` runs after a draw and for nothing
-- else (every other move is played without the script — inside the plugin in
-- simulations). Castel's `draw_card` command moves the top card of the pile to the hand,
-- privately, as a draw does; the log says that a second card was drawn, never which.

local PAWNS_FR = { "noirs", "beiges", "rouges", "verts", "violets" }
local PAWNS_EN = { "black", "beige", "red", "green", "purple" }

return {
  id = "pioche-double",
  name = { fr = "Pioche double", en = "Double draw" },
  description = {
    fr = "Piocher prend les deux cartes du dessus de sa pioche au lieu d'une.",
    en = "Drawing takes the top two cards of one's pile instead of one.",
  },
  game = "castel",
  version = "1.0.0",
  changes = {
    {
      fr = "Piocher (une action, CA-T1) prend la carte du dessus de sa pioche, puis la suivante s'il en reste une.",
      en = "Drawing (one action, CA-T1) takes the top card of one's pile, then the next one if one is left.",
    },
  },

  actions = { "draw" },

  after_action = function(ctx, seat, action, events)
    if ctx.game.command("draw_card", { seat = seat }) == nil then
      return -- the pile is empty: the draw took its last card
    end
    ctx.event({
      fr = "Pioche double : les pions " .. PAWNS_FR[seat + 1] .. " piochent une seconde carte",
      en = "Double draw: the " .. PAWNS_EN[seat + 1] .. " pawns draw a second card",
    })
  end,
}
