-- « Trappe coûteuse » — a knight that falls gives back a rope.
--
-- A worked example of changing what a move does with `after_action` (`variants/README.md`).
-- The house rule Veillée ships, `roc-noir/trappe-couteuse.lua`, is the same rule played
-- inside the game: its `setup` calls roc noir's `costly_trapdoor` command (a test plays both
-- on the same random games). This file is not offered as a house rule; copy it into your
-- variants folder to try it or start your own.
--
-- In the plain rules a fall through a trapdoor only sends the knight back (RN-P1). Here its
-- player also hands back a rope, if one is left (RN-R1): falling costs a future jump.
--
-- How: only steps and jumps can end in a fall, so `actions` names them and `after_action`
-- runs for those only (the host plays the other moves without the script — inside the plugin
-- in simulations). `last_fall` says who fell this turn (a fall is public: it reveals its
-- trapdoor); `take_rope` takes the rope. A fall is charged once: the script remembers the
-- roll it charged. `after_when` narrows it further: the hook runs only after a step or jump
-- that changes `last_fall`, i.e. one where a knight fell.

return {
  id = "trappe-couteuse",
  name = { fr = "Trappe coûteuse", en = "Costly trapdoor" },
  description = {
    fr = "Un chevalier qui tombe dans une trappe fait rendre une corde à son joueur.",
    en = "A knight that falls through a trapdoor costs its player a rope.",
  },
  game = "roc-noir",
  version = "1.0.0",
  changes = {
    {
      fr = "Quand un chevalier tombe dans une trappe (RN-P1), son joueur rend une corde s'il lui en reste (RN-R1).",
      en = "When a knight falls through a trapdoor (RN-P1), its player hands back a rope if one is left (RN-R1).",
    },
  },
  actions = { "step-*", "jump-*" },
  after_when = { query = "last_fall", changed = true },

  after_action = function(ctx) -- the seat, action and events are not needed
    local fall = ctx.game.query("last_fall")
    if fall == nil then
      return
    end
    local rolls = ctx.game.query("rolls")
    if ctx.state.charged == rolls then
      return -- this turn's fall is already paid for
    end
    ctx.state.charged = rolls
    if ctx.game.query("ropes", { seat = fall.seat }) == 0 then
      return
    end
    local left = ctx.game.command("take_rope", { seat = fall.seat })
    ctx.event({
      fr = "Trappe coûteuse : le joueur " .. (fall.seat + 1) .. " rend une corde (il lui en reste " .. left .. ")",
      en = "Costly trapdoor: player " .. (fall.seat + 1) .. " hands back a rope (" .. left .. " left)",
    })
  end,
}
