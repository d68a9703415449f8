-- « Le château fort enchanté » — the castle turns a quarter turn on every ring.
--
-- A worked example of `after_when` and the `view` hook (`variants/README.md`). The house
-- rule Veillée ships, `roc-noir/chateau-fort-enchante.lua`, is the same rule played inside
-- the game: its `setup` calls roc noir's `enchanted_castle` command (a test plays both on the
-- same random games). This file is not offered as a house rule; copy it into your variants
-- folder to try it or start your own.
--
-- When the knight die shows the ring, the castle turns a quarter turn (90°, clockwise)
-- before the knight moves. Only the picture turns: the squares, their names, the trapdoors,
-- the moves and the rules stay the same. The board is simply drawn rotated once more each
-- time, so the players must find their way in a castle that keeps turning.
--
-- How: `actions` and `after_when` say that `after_action` is about the rolls after which the
-- die's last face (`last_die_face`) is the ring, so it runs after those rolls only (the other
-- moves are played without it, inside the plugin in simulations) and counts the quarter
-- turns in ctx.state — saved with the game and replayed with it. The `view` hook draws the
-- board with `rotation = turns % 4`.

return {
  id = "chateau-fort-enchante",
  name = { fr = "Le château fort enchanté", en = "The enchanted castle" },
  description = {
    fr = "Quand le dé montre l'anneau, le château tourne d'un quart de tour avant que le chevalier se déplace : les cases et les règles restent les mêmes, mais le plateau est dessiné tourné de 90° de plus à chaque fois.",
    en = "When the die shows the ring, the castle turns a quarter turn before the knight moves: the squares and the rules stay the same, but the board is drawn rotated 90° more each time.",
  },
  game = "roc-noir",
  version = "1.0.0",
  changes = {
    {
      fr = "Anneau au dé : le château tourne d'un quart de tour (90°) avant le déplacement du chevalier.",
      en = "Ring on the die: the castle turns a quarter turn (90°) before the knight moves.",
    },
    {
      fr = "Seul le dessin tourne : les cases gardent leur nom, les trappes leur place, et les règles ne changent pas.",
      en = "Only the picture turns: the squares keep their names, the trapdoors their places, and the rules do not change.",
    },
  },

  actions = { "roll" },
  after_when = { query = "last_die_face", equals = "ring" },

  setup = function(ctx)
    ctx.state.turns = 0
  end,

  after_action = function(ctx) -- `actions` and `after_when`: a roll that shows the ring
    local turns = (ctx.state.turns or 0) + 1
    ctx.state.turns = turns
    local degrees = (turns % 4) * 90
    ctx.event({
      fr = "L'anneau ! Le château tourne d'un quart de tour (il est maintenant tourné de "
        .. degrees .. "°)",
      en = "The ring! The castle turns a quarter turn (it now stands turned "
        .. degrees .. "°)",
    })
  end,

  view = function(ctx, viewer, scene)
    scene.rotation = (ctx.state.turns or 0) % 4
    return scene
  end,
}
