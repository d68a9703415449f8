-- « Seigneur agile » — the lord may also step one square diagonally inside the castle.
--
-- In the plain rules the lord moves two or three squares along a diagonal (SG-L1) or steps
-- from one crown to the other (SG-L2). Here it may also step a single square diagonally,
-- onto an empty castle square or onto a knight, which it then captures (as SG-L3). The
-- special rule still binds: while SG-R applies, the lord does not move.
--
-- How: Siège plays this rule itself. `setup` calls its `nimble_lord` command once; from then
-- on the game lists the new steps with its own moves (ids `d6-c5`, labels « (pas agile) » /
-- « (nimble step) », a click path: the lord, then the square), saves the switch with the
-- game, and plays simulations and bots' playouts without leaving the plugin. The same rule
-- written with hooks (`add_actions`, `play_action`) is the guide's worked example:
-- `variants/examples/seigneur-agile.lua`.

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

  setup = function(ctx)
    ctx.game.command("nimble_lord")
  end,
}
