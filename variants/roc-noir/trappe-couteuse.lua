-- « Trappe coûteuse » — a knight that falls gives back a rope.
--
-- In the plain rules a fall through a trapdoor only sends the knight back (RN-P1). Here its
-- player also hands back a rope, if one is left (RN-R1): falling costs a future jump. The
-- first fall of a turn is charged, once.
--
-- How: the game plays this rule itself. `setup` calls roc noir's `costly_trapdoor` command
-- once; from then on every fall is charged by the game (with its event), the switch is saved
-- with the game, and simulations and bots' playouts never leave the plugin. The same rule
-- written with an `after_action` hook is a worked example: `variants/examples/trappe-couteuse.lua`.

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

  setup = function(ctx)
    ctx.game.command("costly_trapdoor")
  end,
}
