-- « Dragon apprivoisé » — a house rule that changes one card: the Dragon returns only one
-- card, chosen by the player who placed it among the cards outside the walls, in a tower or
-- on a rampart (instead of one outside the walls AND one in a tower or on a rampart).
--
-- How one card is overridden (see variants/castel/README.md): Castel's own script
-- (cards.lua) runs first and defines every card. In `setup` this script redefines the
-- Dragon with `effect = false`: the plugin then leaves no pending effect when the Dragon is
-- placed, so cards.lua does nothing for it; this script's `after_action` resolves the
-- Dragon's new effect itself.

local PAWNS_FR = { "noirs", "beiges", "rouges", "verts", "violets" }
local PAWNS_EN = { "black", "beige", "red", "green", "purple" }
local RAMPARTS_FR = { n = "nord", e = "est", s = "sud", w = "ouest" }
local RAMPARTS_EN = { n = "north", e = "east", s = "south", w = "west" }

-- "le Roi (c4)" from a card id and the plugin's `card` answer (the plugin's names).
local function named(ctx, id, info)
  local at = info.at
  local fr, en = "", ""
  local steps = 0
  while at["in"] == "on_card" and steps < 60 do
    at = ctx.game.query("card", { card = at.on }).at
    steps += 1
  end
  if at.square then
    fr, en = at.square, at.square
  elseif at["in"] == "engine" then
    fr = "face au rempart " .. RAMPARTS_FR[at.rampart]
    en = "facing the " .. RAMPARTS_EN[at.rampart] .. " rampart"
  else
    fr, en = "hors les murs", "outside the walls"
  end
  return { fr = info.name.fr .. " (" .. fr .. ")", en = info.name.en .. " (" .. en .. ")" }, at
end

return {
  id = "dragon-apprivoise",
  name = { fr = "Dragon apprivoisé", en = "Tamed dragon" },
  description = {
    fr = "Le Dragon ne renvoie plus qu'une seule carte, au choix du joueur qui le pose : une carte hors les murs, d'une tour ou d'un rempart.",
    en = "The Dragon returns only one card, chosen by the player who places it: a card outside the walls, in a tower or on a rampart.",
  },
  game = "castel",
  version = "1.0.0",
  changes = {
    {
      fr = "Dragon : renvoie une seule carte (hors les murs, dans une tour ou sur un rempart) au lieu de deux.",
      en = "Dragon: returns a single card (outside the walls, in a tower or on a rampart) instead of two.",
    },
  },

  -- Its after_action is about placing the Dragon only.
  actions = { "place-dragon-*" },

  setup = function(ctx)
    -- No pending effect for the Dragon: cards.lua leaves it to this script.
    ctx.game.command("define_card", { kind = "dragon", effect = false })
  end,

  after_action = function(ctx, seat, action, events)
    if string.sub(action.id, 1, 13) ~= "place-dragon-" then
      return
    end
    if ctx.game.status().state == "finished" then
      return
    end
    local options, targets, texts = {}, {}, {}
    for _, id in ipairs(ctx.game.query("cards_in_play")) do
      if id ~= "dragon" then
        local info = ctx.game.query("card", { card = id })
        if not info.protected then
          local text, at = named(ctx, id, info)
          local where = at["in"]
          if where == "outside" or where == "engine" or where == "tower" or where == "rampart" then
            targets[#targets + 1] = id
            texts[#texts + 1] = text
            options[#options + 1] = { fr = "Renvoyer : " .. text.fr, en = "Return: " .. text.en }
          end
        end
      end
    end
    if #targets == 0 then
      return -- CA-T3: nothing to return, the effect is ignored
    end
    local i = 1
    if #targets > 1 then
      i = ctx.choose(seat, options, {
        fr = "Dragon apprivoisé : quelle carte renvoyer (hors les murs, tour ou rempart) ?",
        en = "Tamed dragon: which card to return (outside the walls, tower or rampart)?",
      })
    end
    local went = ctx.game.command("return_card", { card = targets[i] })
    local whom = { fr = "à l'échange", en = "to the exchange" }
    if went.to == "hand" then
      whom = {
        fr = "dans la main des pions " .. PAWNS_FR[went.seat + 1],
        en = "to the " .. PAWNS_EN[went.seat + 1] .. " pawns' hand",
      }
    end
    ctx.event({
      fr = "Dragon apprivoisé : " .. texts[i].fr .. " retourne " .. whom.fr,
      en = "Tamed dragon: " .. texts[i].en .. " goes back " .. whom.en,
    })
  end,
}
