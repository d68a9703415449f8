-- « Tour maîtresse » — a castle only counts with its tower in the centre.
--
-- In the plain rules a player wins by gathering the five pieces into any 3 × 3 square (BT-E1);
-- the tower in the centre only decides when both castles are completed in the same round
-- (BT-E2). Here a castle whose tower is not on the centre square does not count at all: the
-- game goes on, and the player must rebuild it around the tower.
--
-- How: the castle check is the plugin's, at the end of each round, so the script asks the game
-- itself, once, at set-up, with Bâtisseurs' `require_central_tower` command. From then on the
-- plugin only counts castles with the tower in the centre (for the win, the end-of-game
-- highlights and the message telling Black that White's castle is complete).

return {
  id = "tour-maitresse",
  name = { fr = "Tour maîtresse", en = "Master tower" },
  description = {
    fr = "Un château ne compte que si la tour en occupe le centre.",
    en = "A castle only counts with the tower in its centre.",
  },
  game = "batisseurs",
  version = "1.0.0",
  changes = {
    {
      fr = "Un château (les cinq pièces en carré de 3 × 3) ne gagne que si la tour est sur la case du centre ; sinon la partie continue (BT-E1).",
      en = "A castle (the five pieces in a 3 × 3 square) only wins with the tower on its centre square; otherwise the game goes on (BT-E1).",
    },
    {
      fr = "Si les deux châteaux comptent au même tour, la partie est nulle (les deux tours sont au centre, BT-E2).",
      en = "If both castles count in the same round, the game is drawn (both towers are in the centre, BT-E2).",
    },
  },

  setup = function(ctx)
    ctx.game.command("require_central_tower")
  end,
}
