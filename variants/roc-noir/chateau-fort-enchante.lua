-- « Le château fort enchanté » — the castle turns a quarter turn on every ring.
--
-- When the knight die shows the ring, the castle turns a quarter turn (90°, clockwise)
-- before the knight moves. Only the picture turns: the squares, their names, the trapdoors,
-- the moves and the rules stay the same. The board is simply drawn rotated once more each
-- time, so the players must find their way in a castle that keeps turning.
--
-- How: the game plays this rule itself. `setup` calls roc noir's `enchanted_castle` command
-- once; from then on the game turns its picture on every ring (with its event), saves the
-- quarter turns with the game, and plays simulations and bots' playouts without leaving the
-- plugin. The same rule written with hooks (`after_action` with `after_when`, `view`) is a
-- worked example: `variants/examples/chateau-fort-enchante.lua`.

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

  setup = function(ctx)
    ctx.game.command("enchanted_castle")
  end,
}
