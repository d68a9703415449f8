-- « Renforts » — once per game, the defender may bring back a lost soldier.
--
-- The worked example of `variants/README.md`: a rule with a question (`ctx.choose`) and
-- state of its own. The house rule Veillée ships, `siege/renforts.lua`, is the same rule
-- played inside the game: its `setup` calls Siège's `reinforcements` command (a test plays
-- both on the same random games). This file is not offered as a house rule; copy it into
-- your variants folder to try it or start your own.
--
-- After a move that cost the defender a soldier, the defender is asked (ctx.choose) whether
-- to put a soldier back on one of the empty dotted squares (c6 d5 e5 f6), or to keep the
-- reinforcements for a later loss. Once used, the rule is spent.
--
-- `after_when` says that the hook has something to do only after a move that changes the
-- number of soldiers lost: it runs after those moves only (the others are played without it,
-- inside the plugin in simulations).

local DEFENDER = 1 -- seats count from 0: the attacker is 0, the defender 1

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

  after_when = { query = "soldiers_lost", changed = true },

  -- It reads none of its other arguments (seat, action, events): declaring only `ctx` spares
  -- building them.
  after_action = function(ctx)
    local lost = ctx.game.query("soldiers_lost")
    local seen = ctx.state.lost or 0
    ctx.state.lost = lost
    if ctx.state.used or lost <= seen then
      return
    end
    if ctx.game.status().state == "finished" then
      return
    end
    local squares = ctx.game.query("empty_dotted_squares")
    if #squares == 0 then
      return
    end

    local options = {}
    for i, square in ipairs(squares) do
      options[i] = {
        fr = "Faire revenir un soldat sur " .. square,
        en = "Bring a soldier back onto " .. square,
      }
    end
    options[#options + 1] = {
      fr = "Garder les renforts pour plus tard",
      en = "Keep the reinforcements for later",
    }
    local pick = ctx.choose(DEFENDER, options, {
      fr = "Renforts : un soldat est tombé. Le faire revenir maintenant ?",
      en = "Reinforcements: a soldier has fallen. Bring one back now?",
    })
    if pick > #squares then
      return
    end

    local square = squares[pick]
    local piece = ctx.game.command("add_soldier", { square = square })
    ctx.state.used = true
    ctx.state.lost = lost - 1
    ctx.event({
      fr = "Renforts : un soldat (" .. piece .. ") revient sur " .. square,
      en = "Reinforcements: a soldier (" .. piece .. ") comes back onto " .. square,
    })
  end,
}
