-- « Prise obligatoire » — flanked enemies must be taken.
--
-- In the plain rules, after the coups the player may take each flanked enemy piece or stop
-- (CN-C2: `take-…` actions and `end-turn`). Here taking is compulsory: while a piece can be
-- taken, `end-turn` is not offered; the turn ends by itself after the last possible capture.
--
-- Speed: `actions` says which actions the hook is about. The host calls `filter_actions`
-- only when the list holds an `end-turn` (the capture phase), and plays every other move
-- without asking the script — inside the plugin, in simulations.

return {
  id = "prise-obligatoire",
  name = { fr = "Prise obligatoire", en = "Compulsory capture" },
  description = {
    fr = "Toute pièce ennemie encadrée doit être prise : on ne peut pas finir son tour tant qu'il reste une prise.",
    en = "Every flanked enemy piece must be taken: a turn cannot end while a capture remains.",
  },
  game = "chateau-noir",
  version = "1.0.0",
  changes = {
    {
      fr = "Les prises sont obligatoires (CN-C2) : tant qu'une pièce encadrée peut être prise, « finir le tour » n'est pas proposé.",
      en = "Captures are compulsory (CN-C2): while a flanked piece can be taken, “end the turn” is not offered.",
    },
  },
  actions = { "end-turn" },

  filter_actions = function(ctx, seat, actions)
    local takes = {}
    for _, action in ipairs(actions) do
      if string.sub(action.id, 1, 5) == "take-" then
        takes[#takes + 1] = action.id
      end
    end
    if #takes == 0 then
      return nil -- nothing to take: keep the list as it is
    end
    return takes
  end,
}
