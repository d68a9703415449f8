-- « Prise en diagonale » — diagonal flanking captures too.
--
-- In the plain rules an enemy piece is taken when it lies between two pieces of the moving
-- side on a row or a column (CN-C1); a diagonal does not count. Here it does: a piece with
-- pieces of the moving side on both diagonal neighbours of one diagonal may be taken too, with
-- the usual conditions (at least one flanker of the moving army, the choice of CN-C2, the
-- points of CN-S1). The immunity of CN-C3 follows: a piece that walks in between two enemy
-- pieces on a diagonal cannot be taken by them in their next turn.
--
-- How: the capture phase is the plugin's (a filter could only remove `take-…` actions), so the
-- script asks the game itself, once, at set-up, with Château Noir's `allow_diagonal_flanking`
-- command. From then on the plugin lists the diagonal captures as ordinary `take-…` actions.

return {
  id = "prise-en-diagonale",
  name = { fr = "Prise en diagonale", en = "Diagonal capture" },
  description = {
    fr = "Une pièce encadrée en diagonale par deux pièces ennemies peut être prise, comme sur une rangée ou une colonne.",
    en = "A piece flanked on a diagonal by two enemy pieces may be taken, as on a row or a column.",
  },
  game = "chateau-noir",
  version = "1.0.0",
  changes = {
    {
      fr = "L'encadrement en diagonale capture aussi (CN-C1) : deux pièces du camp qui joue sur les deux cases diagonales opposées d'une pièce ennemie, dont au moins une de l'armée qui joue.",
      en = "Diagonal flanking captures too (CN-C1): two pieces of the moving side on the two opposite diagonal squares of an enemy piece, at least one of them of the moving army.",
    },
    {
      fr = "Une pièce qui se place d'elle-même entre deux pièces ennemies en diagonale est à l'abri de ces ennemis à leur tour suivant (CN-C3).",
      en = "A piece that moves itself between two enemy pieces on a diagonal is safe from them in their next turn (CN-C3).",
    },
  },

  setup = function(ctx)
    ctx.game.command("allow_diagonal_flanking")
  end,
}
