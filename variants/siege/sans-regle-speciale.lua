-- « Sans règle spéciale » — Siège without its special rule (SG-R).
--
-- In the plain rules, the defender's first four moves must each take a different soldier off
-- its dotted square (SG-R). Here the defender plays freely from the first move.
--
-- How: a filter can only remove actions, and SG-R removes moves, so instead the script asks
-- the game itself to lift the obligation once, at set-up, with Siège's `end_special_rule`
-- command. From then on the plugin lists every move the other rules allow, with their usual
-- ids, labels and click paths.

return {
  id = "sans-regle-speciale",
  name = { fr = "Sans règle spéciale", en = "No special rule" },
  description = {
    fr = "Le défenseur n'est pas tenu de sortir ses soldats de leurs points au début : il joue librement dès son premier coup.",
    en = "The defender need not move the soldiers off their dots at the start: every move is free from the first one.",
  },
  game = "siege",
  version = "1.0.0",
  exclusive = false,
  changes = {
    {
      fr = "Pas de règle spéciale : les quatre premiers coups du défenseur sont libres (seigneur compris).",
      en = "No special rule: the defender's first four moves are free (the lord included).",
    },
  },

  setup = function(ctx)
    ctx.game.command("end_special_rule")
  end,
}
