-- « Renforts » — once per game, the defender may bring back a lost soldier.
--
-- After a move that cost the defender a soldier, the defender is asked whether to put a
-- soldier back on one of the empty dotted squares (c6 d5 e5 f6), or to keep the
-- reinforcements for a later loss. Once used, the rule is spent.
--
-- How: Siège plays this rule itself. `setup` calls its `reinforcements` command once; from
-- then on, after a soldier is lost, the game offers the defender its answers as ordinary
-- actions (`reinforce-d5`…, `keep-reinforcements`), saves where the rule stands with the
-- game, and plays simulations and bots' playouts without leaving the plugin. The same rule
-- written with hooks (`after_action`, `ctx.choose`, `ctx.state`) is the guide's worked
-- example: `variants/examples/renforts.lua`.

return {
  id = "renforts",
  name = { fr = "Renforts", en = "Reinforcements" },
  description = {
    fr = "Une fois par partie, après avoir perdu un soldat, le défenseur peut en faire revenir un sur une case à point vide de son choix.",
    en = "Once per game, after losing a soldier, the defender may bring one back onto an empty dotted square of their choice.",
  },
  game = "siege",
  version = "1.0.0",
  changes = {
    {
      fr = "Une fois par partie, après la perte d'un soldat, le défenseur peut remettre un soldat sur une case à point vide (c6, d5, e5 ou f6).",
      en = "Once per game, after losing a soldier, the defender may put a soldier back on an empty dotted square (c6, d5, e5 or f6).",
    },
  },

  setup = function(ctx)
    ctx.game.command("reinforcements")
  end,
}
