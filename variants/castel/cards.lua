-- « Les cartes de Castel » — Castel's 56 cards: the card table and every arrival effect.
--
-- This script is part of the game: it is loaded with every game of Castel, before any
-- house rule. The plugin (plugins/castel) knows the surface, hands, piles, exchange, pawns,
-- the turn, placement legality, protection, soldiers and engines and the end; everything
-- that makes one card different from another is here:
--
-- * CARDS, the card table of shared/rules/castel.md: per kind its names (fr/en), count,
--   zone, sex, placement condition, what it does on arrival (fr/en) and, for the cards
--   whose effect is scripted, the function that resolves it. `setup` pushes the table into
--   the plugin (`define_card` per kind, `enable_scripted_effects`) and deals from it
--   (`deal`): change a count here and the deal changes.
-- * `after_action`: after a placement (`place-…`) the plugin leaves the card's effect
--   pending (`turn().pending`); the matching function below resolves it, asking the player
--   who placed the card (`ctx.choose`), then calls `end_effect` (CA-E1 is checked then).
--
-- CA-T3, for every effect: it applies whenever possible, whether it helps or not; the
-- player who placed the card decides unless the card says otherwise; an effect that cannot
-- apply is simply ignored (the card stays placed). When exactly one target is possible it is
-- applied without asking — except a pick among one's own hand's cards, always asked, so that
-- the question tells the table nothing about the hand — and a target the plugin would refuse
-- (a protected card, CA-T6) is never offered. Random draws come only from the plugin's
-- seeded commands.
--
-- Editing this file changes the game without rebuilding anything. To change one card in a
-- house rule instead, see variants/castel/README.md.

local PAWNS_FR = { "noirs", "beiges", "rouges", "verts", "violets" }
local PAWNS_EN = { "black", "beige", "red", "green", "purple" }
local RAMPARTS_FR = { n = "nord", e = "est", s = "sud", w = "ouest" }
local RAMPARTS_EN = { n = "north", e = "east", s = "south", w = "west" }

-- ---------------------------------------------------------------------------------------
-- Small helpers (locals: a script's table may only hold hooks as functions).

local function query(ctx, name, args)
  return ctx.game.query(name, args)
end

local function command(ctx, name, args)
  return ctx.game.command(name, args)
end

local function seat_text(seat)
  return { fr = "des pions " .. PAWNS_FR[seat + 1], en = "the " .. PAWNS_EN[seat + 1] .. " pawns" }
end

local function pawn_text(seat)
  if seat == nil then
    return { fr = "sans pion", en = "no pawn" }
  end
  return { fr = "pion " .. string.sub(PAWNS_FR[seat + 1], 1, -2), en = PAWNS_EN[seat + 1] .. " pawn" }
end

local BY_KIND = {} -- kind id -> its line of CARDS (filled below)

-- The kind and copy number of a card id: "soldat-7" -> "soldat", 7; "roi" -> "roi", nil.
local function kind_of(id)
  local base, n = string.match(id, "^(.*)%-(%d+)$")
  if base and BY_KIND[base] then
    return base, tonumber(n)
  end
  return id, nil
end

-- "le Roi" / "the King", "le Soldat 7" / "the Soldier 7".
local function the(id)
  local kind, n = kind_of(id)
  local c = BY_KIND[kind]
  if not c then
    return { fr = id, en = id }
  end
  local suffix = n and (" " .. n) or ""
  local article = c.article or "le "
  return { fr = article .. c.name.fr .. suffix, en = "the " .. c.name.en .. suffix }
end

local function name_of(kind)
  local c = BY_KIND[kind]
  return c and c.name or { fr = kind, en = kind }
end

local function card_info(ctx, id)
  return query(ctx, "card", { card = id })
end

-- A card in play as an entry: `id`, `info` (the plugin's `card` answer), `square` (its
-- stack's square, nil outside the walls), `region` ("courtyard", "rampart", "tower" or
-- "outside"), `rampart` (an engine's rampart). A knight takes its stack's place. `known`
-- (optional) maps ids to `card` answers already asked.
local function entry(ctx, id, known)
  local info = (known and known[id]) or card_info(ctx, id)
  local e = { id = id, info = info }
  local at = info.at
  local steps = 0
  while at["in"] == "on_card" and steps < 60 do
    local below = (known and known[at.on]) or card_info(ctx, at.on)
    at = below.at
    steps += 1
  end
  local where = at["in"]
  if where == "courtyard" or where == "rampart" or where == "tower" then
    e.square = at.square
    e.region = where
  elseif where == "engine" then
    e.region = "outside"
    e.rampart = at.rampart
  elseif where == "outside" then
    e.region = "outside"
  end
  return e
end

-- Every card in play, as entries, in the plugin's card order.
local function all_in_play(ctx)
  local ids = query(ctx, "cards_in_play")
  local known = {}
  for _, id in ipairs(ids) do
    known[id] = card_info(ctx, id)
  end
  local out = {}
  for _, id in ipairs(ids) do
    out[#out + 1] = entry(ctx, id, known)
  end
  return out
end

-- The cards on the squares neighbouring a card (whole stacks, CA-B2), as entries.
local function neighbours(ctx, id)
  local out = {}
  for _, n in ipairs(query(ctx, "neighbours", { card = id })) do
    out[#out + 1] = entry(ctx, n)
  end
  return out
end

local function filter(list, keep)
  local out = {}
  for _, x in ipairs(list) do
    if keep(x) then
      out[#out + 1] = x
    end
  end
  return out
end

local function free(e)
  return not e.info.protected
end

-- Where a card in play stands: "c4", "hors les murs", "face au rempart nord".
local function where_text(e)
  if e.square then
    return { fr = e.square, en = e.square }
  elseif e.rampart then
    return {
      fr = "face au rempart " .. RAMPARTS_FR[e.rampart],
      en = "facing the " .. RAMPARTS_EN[e.rampart] .. " rampart",
    }
  end
  return { fr = "hors les murs", en = "outside the walls" }
end

-- "le Roi (c4)", "le Chevalier 2 (sur le Roi, c4)", "le Barbare (hors les murs)".
local function named(e)
  local t = the(e.id)
  local w = where_text(e)
  local at = e.info.at
  if at["in"] == "on_card" then
    local below = the(at.on)
    return {
      fr = t.fr .. " (sur " .. below.fr .. ", " .. w.fr .. ")",
      en = t.en .. " (on " .. below.en .. ", " .. w.en .. ")",
    }
  end
  return { fr = t.fr .. " (" .. w.fr .. ")", en = t.en .. " (" .. w.en .. ")" }
end

local function verb(fr, en, t)
  return { fr = fr .. " " .. t.fr, en = en .. " " .. t.en }
end

local function prompt(kind, fr, en)
  local n = name_of(kind)
  return { fr = n.fr .. " : " .. fr, en = n.en .. ": " .. en }
end

local function say(ctx, kind, fr, en)
  local n = name_of(kind)
  ctx.event({ fr = n.fr .. " : " .. fr, en = n.en .. ": " .. en })
end

-- CA-T3: no target, nothing; one target, no question; else the player picks.
local function pick(ctx, seat, list, option, question)
  if #list == 0 then
    return nil
  elseif #list == 1 then
    return list[1]
  end
  local options = {}
  for i, x in ipairs(list) do
    options[i] = option(x)
  end
  return list[ctx.choose(seat, options, question)]
end

-- A pick among the cards of `seat`'s own hand: asked whenever the hand holds a card, even
-- with a single kind, so that whether the player is asked tells the table nothing about the
-- hand (its size is public, its kinds are not).
local function pick_secret(ctx, seat, list, option, question)
  if #list == 0 then
    return nil
  end
  local options = {}
  for i, x in ipairs(list) do
    options[i] = option(x)
  end
  return list[ctx.choose(seat, options, question)]
end

-- The first card of each kind (identical cards are one choice).
local function distinct(ids)
  local seen, out = {}, {}
  for _, id in ipairs(ids) do
    local kind = kind_of(id)
    if not seen[kind] then
      seen[kind] = true
      out[#out + 1] = id
    end
  end
  return out
end

-- Returns a card (CA-T5) and tells the table where it went.
local function give_back(ctx, kind, e)
  local went = command(ctx, "return_card", { card = e.id })
  local n = named(e)
  if went.to == "hand" then
    local s = seat_text(went.seat)
    say(ctx, kind, n.fr .. " retourne dans la main " .. s.fr, n.en .. " goes back to " .. s.en .. "' hand")
  else
    say(ctx, kind, n.fr .. " va à l'échange", n.en .. " goes to the exchange")
  end
end

-- Asks `seat` which of `candidates` to return (for the card `kind`) and returns it.
local function return_one(ctx, kind, seat, candidates, fr, en)
  local target = pick(ctx, seat, candidates, function(e)
    return verb("Renvoyer", "Return", named(e))
  end, prompt(kind, fr, en))
  if target then
    give_back(ctx, kind, target)
  end
  return target
end

-- Moves a card in play to one of the free squares of its zone, asking where.
local function move_on_squares(ctx, kind, seat, e, soldier_rule)
  local squares = query(ctx, "free_squares", { zone = e.region })
  local t = named(e)
  local to = pick(ctx, seat, squares, function(sq)
    return { fr = "Déplacer " .. t.fr .. " en " .. sq, en = "Move " .. t.en .. " to " .. sq }
  end, prompt(kind, "où déplacer " .. t.fr .. " ?", "where to move " .. t.en .. "?"))
  if to then
    command(ctx, "move_card", { card = e.id, to = to, soldier_rule = soldier_rule or false })
    say(ctx, kind, t.fr .. " va en " .. to, t.en .. " moves to " .. to)
  end
end

-- Where a knight may move: onto the top of another stack (its zone: on a card).
local function knight_spots(ctx, id)
  local own = "on-" .. id
  return filter(query(ctx, "spots", { card = id }), function(s)
    return s ~= own
  end)
end

local function move_knight(ctx, kind, seat, e)
  local t = named(e)
  local to = pick(ctx, seat, knight_spots(ctx, e.id), function(s)
    local below = entry(ctx, string.sub(s, 4))
    return verb("Déplacer " .. t.fr .. " sur", "Move " .. t.en .. " onto", named(below))
  end, prompt(kind, "où déplacer " .. t.fr .. " ?", "where to move " .. t.en .. "?"))
  if to then
    command(ctx, "move_card", { card = e.id, to = to })
    local below = the(string.sub(to, 4))
    say(ctx, kind, t.fr .. " va sur " .. below.fr, t.en .. " moves onto " .. below.en)
  end
end

-- The knights that can move (unprotected, standing on a card, with another stack to go
-- to). A knight the Fée took outside the walls is in a zone without squares: it stays (CA-T4).
local function knights_that_can_move(ctx)
  return filter(all_in_play(ctx), function(e)
    return e.info.kind == "chevalier" and e.info.at["in"] == "on_card" and free(e)
      and #knight_spots(ctx, e.id) > 0
  end)
end

-- ---------------------------------------------------------------------------------------
-- The effects. Each receives ctx and `a`, the arrival: `a.card` (the card's id) and
-- `a.seat` (the player who placed it, who decides).

local effects = {}

function effects.assassin(ctx, a)
  local targets = filter(neighbours(ctx, a.card), function(e)
    return free(e) and e.info.kind ~= "roi"
  end)
  local target = pick(ctx, a.seat, targets, function(e)
    return verb("Retirer du jeu", "Remove from the game", named(e))
  end, prompt("assassin", "quelle carte voisine retirer du jeu ?", "which neighbouring card to remove from the game?"))
  if target then
    command(ctx, "remove_card", { card = target.id })
    local n = named(target)
    say(ctx, "assassin", n.fr .. " est retiré du jeu", n.en .. " is removed from the game")
  end
end

function effects.baladin(ctx, a)
  local cards = filter(neighbours(ctx, a.card), function(e)
    return free(e) and e.info.at["in"] == "courtyard"
  end)
  if #cards < 2 then
    return
  end
  local first = cards[1]
  if #cards > 2 then
    first = pick(ctx, a.seat, cards, function(e)
      return verb("Intervertir", "Swap", named(e))
    end, prompt("baladin", "quelle carte intervertir ?", "which card to swap?"))
  end
  local others = filter(cards, function(e)
    return e.id ~= first.id
  end)
  local f = named(first)
  local second = pick(ctx, a.seat, others, function(e)
    return verb("Intervertir " .. f.fr .. " avec", "Swap " .. f.en .. " with", named(e))
  end, prompt("baladin", "intervertir " .. f.fr .. " avec quelle carte ?", "swap " .. f.en .. " with which card?"))
  command(ctx, "swap_cards", { a = first.id, b = second.id })
  local s = named(second)
  say(ctx, "baladin", f.fr .. " et " .. s.fr .. " sont intervertis", f.en .. " and " .. s.en .. " are swapped")
end

function effects.bouffon(ctx, a)
  -- Every player passes one card of their hand to the left neighbour, all at once: each is
  -- asked privately (ctx.choose_all), among their own cards only.
  local questions, seats = {}, {}
  for _, c in ipairs(query(ctx, "counts")) do
    if c.hand > 0 then
      local hand = distinct(query(ctx, "hand", { seat = c.seat }))
      local options = {}
      for i, id in ipairs(hand) do
        options[i] = verb("Passer", "Pass", the(id))
      end
      questions[#questions + 1] = {
        seat = c.seat,
        options = options,
        prompt = prompt("bouffon", "quelle carte passer à votre voisin de gauche ?", "which card to pass to your left neighbour?"),
      }
      seats[#seats + 1] = { seat = c.seat, hand = hand }
    end
  end
  if #questions == 0 then
    return
  end
  -- Everyone holding a card is asked, even with a single kind in hand: who is asked must
  -- not tell the table what a hand holds.
  local picks = ctx.choose_all(questions)
  local cards = {}
  for _, s in ipairs(seats) do
    local i = picks[s.seat] or 1
    cards[tostring(s.seat)] = s.hand[i]
  end
  command(ctx, "pass_cards", { cards = cards, direction = "left" })
  say(ctx, "bouffon", "chaque joueur passe une carte à son voisin de gauche", "every player passes a card to their left neighbour")
end

effects["chevalier-noir"] = function(ctx, a)
  local knights = filter(neighbours(ctx, a.card), function(e)
    return free(e) and e.info.kind == "chevalier"
  end)
  return_one(ctx, "chevalier-noir", a.seat, knights, "quel chevalier voisin renvoyer ?", "which neighbouring knight to return?")
end

function effects.conseiller(ctx, a)
  -- A card of the exchange comes into play without a pawn, where it may be placed (CA-T2),
  -- and acts as if placed, its choices made by this player.
  local choices = {}
  for _, id in ipairs(distinct(query(ctx, "exchange"))) do
    local spots = query(ctx, "spots", { card = id })
    if #spots > 0 then
      choices[#choices + 1] = { id = id, spots = spots }
    end
  end
  local chosen = pick(ctx, a.seat, choices, function(c)
    return verb("Mettre en jeu", "Put into play", the(c.id))
  end, prompt("conseiller", "quelle carte de l'échange mettre en jeu ?", "which card of the exchange to put into play?"))
  if not chosen then
    return
  end
  local t = the(chosen.id)
  local function spot_text(s)
    if s == "outside" then
      return { fr = "hors les murs", en = "outside the walls" }
    elseif string.sub(s, 1, 7) == "engine-" then
      local r = string.sub(s, 8)
      return { fr = "face au rempart " .. RAMPARTS_FR[r], en = "facing the " .. RAMPARTS_EN[r] .. " rampart" }
    elseif string.sub(s, 1, 3) == "on-" then
      local below = named(entry(ctx, string.sub(s, 4)))
      return { fr = "sur " .. below.fr, en = "on " .. below.en }
    end
    return { fr = "en " .. s, en = "on " .. s }
  end
  local spot = pick(ctx, a.seat, chosen.spots, function(s)
    local w = spot_text(s)
    return { fr = "Mettre " .. t.fr .. " " .. w.fr, en = "Put " .. t.en .. " " .. w.en }
  end, prompt("conseiller", "où mettre " .. t.fr .. " ?", "where to put " .. t.en .. "?"))
  command(ctx, "put_into_play", { card = chosen.id, to = spot })
  local w = spot_text(spot)
  say(ctx, "conseiller", t.fr .. " entre en jeu " .. w.fr .. ", sans pion", t.en .. " comes into play " .. w.en .. ", without a pawn")
  local kind = kind_of(chosen.id)
  local effect = effects[kind]
  if effect and card_info(ctx, chosen.id).effect and BY_KIND[kind] and BY_KIND[kind].effect then
    effect(ctx, { card = chosen.id, seat = a.seat })
  end
end

function effects.courtisan(ctx, a)
  local cards = filter(neighbours(ctx, a.card), free)
  return_one(ctx, "courtisan", a.seat, cards, "quelle carte voisine renvoyer ?", "which neighbouring card to return?")
end

function effects.courtisane(ctx, a)
  -- One card of your hand for a card drawn at random from another player's hand.
  local mine = distinct(query(ctx, "hand", { seat = a.seat }))
  local others = filter(query(ctx, "counts"), function(c)
    return c.seat ~= a.seat and c.hand > 0
  end)
  if #mine == 0 or #others == 0 then
    return
  end
  local give = pick_secret(ctx, a.seat, mine, function(id)
    return verb("Donner", "Give", the(id))
  end, prompt("courtisane", "quelle carte de votre main donner ?", "which card of your hand to give?"))
  local other = pick(ctx, a.seat, others, function(c)
    local s = seat_text(c.seat)
    return { fr = "Prendre au hasard dans la main " .. s.fr, en = "Draw at random from " .. s.en .. "' hand" }
  end, prompt("courtisane", "avec quel joueur échanger ?", "with which player to swap?"))
  local taken = command(ctx, "random_hand_card", { seat = other.seat })
  command(ctx, "give_card", { card = taken, seat = a.seat })
  command(ctx, "give_card", { card = give, seat = other.seat })
  -- Nothing the others see tells which hand it was (hand sizes do not change): the event
  -- does not say it either (the leak checks hold every text to what its readers can see).
  local me = seat_text(a.seat)
  say(ctx, "courtisane", "une carte de la main " .. me.fr .. " contre une carte prise au hasard dans une autre main",
    "a card of " .. me.en .. "' hand for a card drawn at random from another hand")
end

function effects.dame(ctx, a)
  local men = filter(neighbours(ctx, a.card), function(e)
    return free(e) and e.region == "courtyard" and e.info.sex == "male"
  end)
  return_one(ctx, "dame", a.seat, men, "quel personnage masculin voisin renvoyer de la cour ?", "which neighbouring male character to return from the courtyard?")
end

function effects.espion(ctx, a)
  -- The pawns of the neighbouring cards are rearranged at will: card by card, the player
  -- picks which of the remaining pawns goes on it.
  local cards = neighbours(ctx, a.card)
  if #cards < 2 then
    return
  end
  local left = {} -- remaining pawns: seat or -1 for "no pawn"
  for _, e in ipairs(cards) do
    left[#left + 1] = e.info.pawn or -1
  end
  local changes = {}
  for _, e in ipairs(cards) do
    local kinds, seen = {}, {}
    for _, p in ipairs(left) do
      if not seen[p] then
        seen[p] = true
        kinds[#kinds + 1] = p
      end
    end
    table.sort(kinds)
    local current = e.info.pawn or -1
    local n = named(e)
    local p = pick(ctx, a.seat, kinds, function(p)
      local t = pawn_text(p >= 0 and p or nil)
      local mark = p == current and { fr = " (actuel)", en = " (current)" } or { fr = "", en = "" }
      return { fr = "Sur " .. n.fr .. " : " .. t.fr .. mark.fr, en = "On " .. n.en .. ": " .. t.en .. mark.en }
    end, prompt("espion", "quel pion sur " .. n.fr .. " ?", "which pawn on " .. n.en .. "?"))
    for i, q in ipairs(left) do
      if q == p then
        table.remove(left, i)
        break
      end
    end
    if p ~= current then
      changes[#changes + 1] = { card = e.id, seat = p >= 0 and p or nil }
    end
  end
  for _, c in ipairs(changes) do
    command(ctx, "set_pawn", c)
  end
  if #changes > 0 then
    say(ctx, "espion", "les pions des cartes voisines sont réarrangés", "the pawns of the neighbouring cards are rearranged")
  end
end

function effects.favorite(ctx, a)
  -- Moves the Roi, then a knight, where the player likes (within their zones, CA-T4).
  for _, id in ipairs(query(ctx, "find", { kind = "roi" })) do
    local roi = entry(ctx, id)
    if roi.square and query(ctx, "can_move", { card = id }) then
      move_on_squares(ctx, "favorite", a.seat, roi)
    end
  end
  local knight = pick(ctx, a.seat, knights_that_can_move(ctx), function(e)
    return verb("Déplacer", "Move", named(e))
  end, prompt("favorite", "quel chevalier déplacer ?", "which knight to move?"))
  if knight then
    move_knight(ctx, "favorite", a.seat, knight)
  end
end

function effects.fou(ctx, a)
  -- Every player draws a random card from the right neighbour's hand, all at once: random,
  -- so nobody chooses anything.
  local n = command(ctx, "draw_from_neighbours", { direction = "right" })
  if n > 0 then
    say(ctx, "fou", "chaque joueur pioche une carte au hasard dans la main de son voisin de droite",
      "every player draws a random card from their right neighbour's hand")
  end
end

function effects.intrigant(ctx, a)
  local cards = filter(all_in_play(ctx), function(e)
    return e.id ~= a.card
  end)
  local function differs(x)
    return function(e)
      return e.info.pawn ~= x.info.pawn
    end
  end
  local firsts = filter(cards, function(x)
    return #filter(cards, differs(x)) > 0
  end)
  local first = pick(ctx, a.seat, firsts, function(e)
    return verb("Échanger le pion de", "Swap the pawn of", named(e))
  end, prompt("intrigant", "le pion de quelle carte échanger ?", "swap the pawn of which card?"))
  if not first then
    return
  end
  local f = named(first)
  local second = pick(ctx, a.seat, filter(cards, differs(first)), function(e)
    local p = pawn_text(e.info.pawn)
    return {
      fr = "Échanger le pion de " .. f.fr .. " avec celui de " .. named(e).fr .. " (" .. p.fr .. ")",
      en = "Swap the pawn of " .. f.en .. " with that of " .. named(e).en .. " (" .. p.en .. ")",
    }
  end, prompt("intrigant", "avec le pion de quelle carte ?", "with the pawn of which card?"))
  command(ctx, "swap_pawns", { a = first.id, b = second.id })
  say(ctx, "intrigant", "les pions de " .. f.fr .. " et de " .. named(second).fr .. " sont échangés",
    "the pawns of " .. f.en .. " and " .. named(second).en .. " are swapped")
end

function effects.marchand(ctx, a)
  -- A third action this turn; in return three pawns of other players become yours.
  if ctx.game.status().state ~= "finished" then
    command(ctx, "grant_action", { seat = a.seat })
    say(ctx, "marchand", "une action de plus ce tour", "one more action this turn")
  end
  for n = 1, 3 do
    local theirs = filter(all_in_play(ctx), function(e)
      return e.info.pawn ~= nil and e.info.pawn ~= a.seat
    end)
    local ask = theirs
    if #theirs <= 4 - n then
      ask = { theirs[1] } -- all of them will be taken: no question
    end
    local target = pick(ctx, a.seat, ask, function(e)
      return verb("Mettre votre pion sur", "Put your pawn on", named(e))
    end, prompt("marchand", "remplacer le pion de quelle carte par le vôtre (" .. n .. "/3) ?",
      "replace the pawn of which card with yours (" .. n .. "/3)?"))
    if not target then
      break
    end
    command(ctx, "set_pawn", { card = target.id, seat = a.seat })
    local t = named(target)
    say(ctx, "marchand", t.fr .. " porte maintenant un pion " .. string.sub(PAWNS_FR[a.seat + 1], 1, -2),
      t.en .. " now bears a " .. PAWNS_EN[a.seat + 1] .. " pawn")
  end
end

effects["prince-charmant"] = function(ctx, a)
  local women = filter(all_in_play(ctx), function(e)
    return e.info.sex == "female" and e.square ~= nil and e.info.at["in"] ~= "on_card"
      and query(ctx, "can_move", { card = e.id })
  end)
  local woman = pick(ctx, a.seat, women, function(e)
    return verb("Déplacer", "Move", named(e))
  end, prompt("prince-charmant", "quel personnage féminin déplacer ?", "which female character to move?"))
  if woman then
    move_on_squares(ctx, "prince-charmant", a.seat, woman)
  end
end

function effects.princesse(ctx, a)
  local knight = pick(ctx, a.seat, knights_that_can_move(ctx), function(e)
    return verb("Déplacer", "Move", named(e))
  end, prompt("princesse", "quel chevalier déplacer ?", "which knight to move?"))
  if knight then
    move_knight(ctx, "princesse", a.seat, knight)
  end
end

function effects.reine(ctx, a)
  local cards = filter(all_in_play(ctx), function(e)
    return free(e) and e.region == "courtyard" and e.id ~= a.card
  end)
  return_one(ctx, "reine", a.seat, cards, "quelle carte de la cour renvoyer ?", "which courtyard card to return?")
end

function effects.roi(ctx, a)
  local function castle_cards()
    return filter(all_in_play(ctx), function(e)
      return free(e) and e.region ~= nil and e.region ~= "outside" and e.id ~= a.card
    end)
  end
  return_one(ctx, "roi", a.seat, castle_cards(), "quelle carte du château renvoyer ?", "which card of the castle to return?")
  -- The Favorite in the courtyard: the owner of her pawn returns « une carte de son
  -- choix » too: any card in play, outside the walls included (the Roi excepted).
  local function any_card()
    return filter(all_in_play(ctx), function(e)
      return free(e) and e.id ~= a.card
    end)
  end
  for _, id in ipairs(query(ctx, "find", { kind = "favorite" })) do
    local fav = card_info(ctx, id)
    if fav.at["in"] == "courtyard" and fav.pawn ~= nil then
      return_one(ctx, "roi", fav.pawn, any_card(),
        "la Favorite vous fait renvoyer une carte de votre choix : laquelle ?",
        "the Favourite has you return a card of your choice: which one?")
    end
  end
end

function effects.voleur(ctx, a)
  local cards = filter(neighbours(ctx, a.card), function(e)
    return e.info.pawn ~= nil
  end)
  local target = pick(ctx, a.seat, cards, function(e)
    return verb("Retirer le pion de", "Remove the pawn of", named(e))
  end, prompt("voleur", "retirer le pion de quelle carte voisine ?", "remove the pawn of which neighbouring card?"))
  if target then
    command(ctx, "set_pawn", { card = target.id })
    local t = named(target)
    say(ctx, "voleur", t.fr .. " n'a plus de pion", t.en .. " has no pawn any more")
  end
end

function effects.barbare(ctx, a)
  local cards = filter(all_in_play(ctx), function(e)
    return free(e) and (e.region == "tower" or e.region == "rampart")
  end)
  return_one(ctx, "barbare", a.seat, cards, "quelle carte d'une tour ou d'un rempart renvoyer ?", "which card of a tower or a rampart to return?")
end

function effects.dragon(ctx, a)
  local outside = filter(all_in_play(ctx), function(e)
    return free(e) and e.region == "outside" and e.id ~= a.card
  end)
  return_one(ctx, "dragon", a.seat, outside, "quelle carte hors les murs renvoyer ?", "which card outside the walls to return?")
  local walls = filter(all_in_play(ctx), function(e)
    return free(e) and (e.region == "tower" or e.region == "rampart")
  end)
  return_one(ctx, "dragon", a.seat, walls, "quelle carte d'une tour ou d'un rempart renvoyer ?", "which card of a tower or a rampart to return?")
end

function effects.enchanteur(ctx, a)
  -- The card placed last before the Enchanteur (the plugin remembers it).
  local last = query(ctx, "turn").placed_before
  if last == nil then
    return
  end
  local info = card_info(ctx, last)
  if info.at["in"] == "hand" or info.at["in"] == "pile" or info.at["in"] == "exchange"
    or info.at["in"] == "removed" or info.protected then
    return
  end
  give_back(ctx, "enchanteur", entry(ctx, last, { [last] = info }))
end

function effects.fee(ctx, a)
  -- « l'un des personnages se trouvant dans le château »: a Chevalier on a card of the
  -- castle is one of them; outside the walls it then stands alone and protects nothing.
  local cards = filter(all_in_play(ctx), function(e)
    return free(e) and e.region ~= nil and e.region ~= "outside" and e.info.character
  end)
  local target = pick(ctx, a.seat, cards, function(e)
    return verb("Attirer hors les murs", "Lure outside the walls", named(e))
  end, prompt("fee", "quel personnage du château attirer hors les murs ?", "which character of the castle to lure outside the walls?"))
  if target then
    command(ctx, "move_card", { card = target.id, to = "outside", any_zone = true })
    local t = named(target)
    say(ctx, "fee", t.fr .. " sort hors les murs", t.en .. " goes outside the walls")
  end
end

function effects.traitre(ctx, a)
  local cards = filter(neighbours(ctx, a.card), function(e)
    return free(e) and e.region == "courtyard"
  end)
  return_one(ctx, "traitre", a.seat, cards, "quelle carte voisine de la cour renvoyer ?", "which neighbouring courtyard card to return?")
end

function effects.alchimiste(ctx, a)
  -- Two cards of the hand for as many of the exchange (those there before the effect).
  local hand = query(ctx, "hand", { seat = a.seat })
  local exchange = query(ctx, "exchange")
  local given, taken = {}, {}
  for round = 1, 2 do
    local mine = distinct(filter(hand, function(id)
      return not given[id]
    end))
    local theirs = distinct(filter(exchange, function(id)
      return not taken[id]
    end))
    if #mine == 0 or #theirs == 0 then
      return
    end
    local give = pick_secret(ctx, a.seat, mine, function(id)
      return verb("Donner", "Give", the(id))
    end, prompt("alchimiste", "quelle carte de votre main échanger (" .. round .. "/2) ?", "which card of your hand to exchange (" .. round .. "/2)?"))
    local g = the(give)
    local take = pick(ctx, a.seat, theirs, function(id)
      return verb("Prendre", "Take", the(id))
    end, prompt("alchimiste", "quelle carte de l'échange prendre (" .. round .. "/2) ?", "which card of the exchange to take (" .. round .. "/2)?"))
    command(ctx, "exchange_card", { seat = a.seat, hand_card = give, exchange_card = take })
    given[give] = true
    taken[take] = true
    local t = the(take)
    say(ctx, "alchimiste", t.fr .. " est pris à l'échange contre " .. g.fr, t.en .. " is taken from the exchange for " .. g.en)
  end
end

function effects.archer(ctx, a)
  local cards = filter(all_in_play(ctx), function(e)
    return free(e) and e.region == "outside"
  end)
  return_one(ctx, "archer", a.seat, cards, "quelle carte hors les murs renvoyer ?", "which card outside the walls to return?")
end

function effects.guetteur(ctx, a)
  -- Moves a soldier along the ramparts; onto the last free square of a rampart it returns
  -- the engine facing it (CA-T4's exception, applied by the plugin with soldier_rule).
  local soldiers = filter(all_in_play(ctx), function(e)
    return e.info.soldier and e.region == "rampart" and e.info.at["in"] == "rampart"
      and query(ctx, "can_move", { card = e.id })
  end)
  local soldier = pick(ctx, a.seat, soldiers, function(e)
    return verb("Déplacer", "Move", named(e))
  end, prompt("guetteur", "quel soldat déplacer ?", "which soldier to move?"))
  if soldier then
    move_on_squares(ctx, "guetteur", a.seat, soldier, true)
  end
end

function effects.magicien(ctx, a)
  local cards = filter(all_in_play(ctx), function(e)
    return free(e) and e.id ~= a.card
  end)
  local target = pick(ctx, a.seat, cards, function(e)
    return verb("Renvoyer à l'échange", "Return to the exchange", named(e))
  end, prompt("magicien", "quelle carte renvoyer à l'échange ?", "which card to return to the exchange?"))
  if target then
    command(ctx, "set_pawn", { card = target.id })
    command(ctx, "return_card", { card = target.id })
    local t = named(target)
    say(ctx, "magicien", t.fr .. " va à l'échange", t.en .. " goes to the exchange")
  end
end

function effects.sorciere(ctx, a)
  local cards = distinct(query(ctx, "exchange"))
  local card = pick(ctx, a.seat, cards, function(id)
    return verb("Donner", "Give", the(id))
  end, prompt("sorciere", "quelle carte de l'échange donner ?", "which card of the exchange to give?"))
  if not card then
    return
  end
  local seats = {}
  for s = 0, ctx.players - 1 do
    seats[#seats + 1] = s
  end
  local t = the(card)
  local seat = pick(ctx, a.seat, seats, function(s)
    local st = seat_text(s)
    return { fr = "Donner " .. t.fr .. " à la main " .. st.fr, en = "Give " .. t.en .. " to " .. st.en .. "' hand" }
  end, prompt("sorciere", "à quel joueur donner " .. t.fr .. " ?", "to which player to give " .. t.en .. "?"))
  command(ctx, "give_card", { card = card, seat = seat })
  local st = seat_text(seat)
  say(ctx, "sorciere", t.fr .. " va dans la main " .. st.fr, t.en .. " goes to " .. st.en .. "' hand")
end

-- ---------------------------------------------------------------------------------------
-- The card table (shared/rules/castel.md, "Cards (56)"). `zone`: courtyard, outside,
-- engine (outside the walls facing a rampart), rampart, tower, on_card (knights). `sex`:
-- male, female, none. `condition`: as the plugin's `define_card` takes it. `text`: the
-- arrival effect. `effect`: the function above, or nil when the plugin's core applies the
-- card's rule itself (continuous effects and arrival rules: say so in `text`).

local NONE = { type = "none" }

local CARDS = {
  -- Courtyard (red banner).
  { kind = "ambassadeur", name = { fr = "Ambassadeur", en = "Ambassador" }, article = "l'", count = 1,
    zone = "courtyard", sex = "male", condition = { type = "last_free" },
    text = { fr = "Est toujours protégé (règle du cœur du jeu).", en = "Is always protected (a rule of the game's core)." } },
  { kind = "assassin", name = { fr = "Assassin", en = "Assassin" }, article = "l'", count = 1,
    zone = "courtyard", sex = "male", condition = NONE,
    text = { fr = "Retire définitivement du jeu une carte voisine autre que le Roi.", en = "Removes from the game a neighbouring card other than the King." } },
  { kind = "baladin", name = { fr = "Baladin", en = "Minstrel" }, count = 1,
    zone = "courtyard", sex = "male", condition = NONE,
    text = { fr = "Intervertit deux cartes de cases de cour voisines.", en = "Swaps two cards on neighbouring courtyard squares." } },
  { kind = "bouffon", name = { fr = "Bouffon", en = "Jester" }, count = 1,
    zone = "courtyard", sex = "male", condition = { type = "min_players", players = 3 },
    text = { fr = "Chaque joueur passe une carte de sa main à son voisin de gauche, simultanément.", en = "Every player passes a card of their hand to the left neighbour, simultaneously." } },
  { kind = "chevalier-noir", name = { fr = "Chevalier noir", en = "Black Knight" }, count = 1,
    zone = "courtyard", sex = "male", condition = NONE,
    text = { fr = "Renvoie un chevalier d'une case voisine.", en = "Returns a knight from a neighbouring square." } },
  { kind = "conseiller", name = { fr = "Conseiller du roi", en = "King's Counsellor" }, count = 1,
    zone = "courtyard", sex = "male", condition = { type = "next_to", kinds = { "roi" } },
    text = { fr = "Met en jeu une carte de l'échange, sans pion ; elle fait effet normalement, au gré de ce joueur.", en = "Puts a card of the exchange into play without a pawn; it acts normally, this player deciding." } },
  { kind = "courtisan", name = { fr = "Courtisan", en = "Courtier" }, count = 1,
    zone = "courtyard", sex = "male", condition = NONE,
    text = { fr = "Renvoie une carte d'une case voisine.", en = "Returns a card from a neighbouring square." } },
  { kind = "courtisane", name = { fr = "Courtisane", en = "Courtesan" }, article = "la ", count = 1,
    zone = "courtyard", sex = "female", condition = NONE,
    text = { fr = "Échange une carte de votre main contre une carte prise au hasard dans la main d'un autre joueur.", en = "Swaps a card of your hand with a random card from another player's hand." } },
  { kind = "dame", name = { fr = "Dame de compagnie", en = "Lady-in-waiting" }, article = "la ", count = 1,
    zone = "courtyard", sex = "female", condition = { type = "next_to", kinds = { "reine", "princesse" } },
    text = { fr = "Renvoie de la cour un personnage masculin d'une case voisine.", en = "Returns a male character from a neighbouring courtyard square." } },
  { kind = "espion", name = { fr = "Espion", en = "Spy" }, article = "l'", count = 1,
    zone = "courtyard", sex = "male", condition = NONE,
    text = { fr = "Réarrange à volonté les pions des cartes voisines.", en = "Rearranges at will the pawns of the neighbouring cards." } },
  { kind = "favorite", name = { fr = "Favorite", en = "Favourite" }, article = "la ", count = 1,
    zone = "courtyard", sex = "female", condition = { type = "not_while_in_courtyard", kind = "reine" },
    text = { fr = "Déplace librement le Roi et un chevalier.", en = "Moves the King and a knight freely." } },
  { kind = "fou", name = { fr = "Fou", en = "Fool" }, count = 1,
    zone = "courtyard", sex = "male", condition = { type = "min_players", players = 3 },
    text = { fr = "Chaque joueur pioche une carte au hasard dans la main de son voisin de droite, simultanément.", en = "Every player draws a random card from the right neighbour's hand, simultaneously." } },
  { kind = "intrigant", name = { fr = "Intrigant", en = "Schemer" }, article = "l'", count = 1,
    zone = "courtyard", sex = "male", condition = NONE,
    text = { fr = "Échange les pions de deux autres cartes.", en = "Swaps the pawns of two other cards." } },
  { kind = "marchand", name = { fr = "Marchand", en = "Merchant" }, count = 1,
    zone = "courtyard", sex = "male", condition = NONE,
    text = { fr = "Donne une troisième action ce tour ; en échange, remplacez trois pions d'autres joueurs par les vôtres.", en = "Gives a third action this turn; in return, replace three pawns of other players with yours." } },
  { kind = "prince", name = { fr = "Prince", en = "Prince" }, count = 1,
    zone = "courtyard", sex = "male", condition = NONE,
    text = { fr = "Tant que le Roi est absent de la cour, les cartes qui doivent aller à côté du Roi peuvent aller à côté du Prince (règle du cœur du jeu).", en = "While the King is absent from the courtyard, cards that must go next to the King may go next to the Prince (a rule of the game's core)." } },
  { kind = "pretre", name = { fr = "Prêtre", en = "Priest" }, count = 1,
    zone = "courtyard", sex = "male", condition = NONE,
    text = { fr = "Protège les personnages des cases voisines portant un pion de sa couleur (règle du cœur du jeu).", en = "Protects the characters on neighbouring squares bearing a pawn of his colour (a rule of the game's core)." } },
  { kind = "prince-charmant", name = { fr = "Prince charmant", en = "Prince Charming" }, count = 1,
    zone = "courtyard", sex = "male", condition = { type = "next_to_if_in_courtyard", kind = "princesse" },
    text = { fr = "Déplace un personnage féminin.", en = "Moves a female character." } },
  { kind = "princesse", name = { fr = "Princesse", en = "Princess" }, article = "la ", count = 1,
    zone = "courtyard", sex = "female", condition = NONE,
    text = { fr = "Déplace un chevalier.", en = "Moves a knight." } },
  { kind = "reine", name = { fr = "Reine", en = "Queen" }, article = "la ", count = 1,
    zone = "courtyard", sex = "female", condition = { type = "next_to_if_in_courtyard", kind = "roi" },
    text = { fr = "Renvoie n'importe quelle autre carte de la cour.", en = "Returns any other courtyard card." } },
  { kind = "roi", name = { fr = "Roi", en = "King" }, count = 1,
    zone = "courtyard", sex = "male", condition = NONE,
    text = { fr = "Renvoie n'importe quelle autre carte du château ; si la Favorite est à la cour, le joueur qui a un pion sur elle renvoie aussi une carte de son choix.", en = "Returns any other card of the castle; if the Favourite is in the courtyard, the owner of her pawn returns a card of their choice too." } },
  { kind = "voleur", name = { fr = "Voleur", en = "Thief" }, count = 1,
    zone = "courtyard", sex = "male", condition = NONE,
    text = { fr = "Retire le pion d'une carte voisine ; renvoyée plus tard, elle ira à l'échange.", en = "Removes the pawn of a neighbouring card; returned later, it goes to the exchange." } },
  -- Outside the walls (green banner).
  { kind = "barbare", name = { fr = "Barbare", en = "Barbarian" }, count = 1,
    zone = "outside", sex = "male", condition = NONE,
    text = { fr = "Renvoie une carte d'une tour ou d'un rempart.", en = "Returns a card from a tower or a rampart." } },
  { kind = "dragon", name = { fr = "Dragon", en = "Dragon" }, count = 1,
    zone = "outside", sex = "none", condition = NONE,
    text = { fr = "Renvoie une carte hors les murs et une carte d'une tour ou d'un rempart.", en = "Returns a card from outside the walls and a card from a tower or a rampart." } },
  { kind = "enchanteur", name = { fr = "Enchanteur", en = "Enchanter" }, article = "l'", count = 1,
    zone = "outside", sex = "male", condition = NONE,
    text = { fr = "Renvoie la dernière carte placée.", en = "Returns the card placed last." } },
  { kind = "engin", name = { fr = "Engin de siège", en = "Siege engine" }, article = "l'", count = 5,
    zone = "engine", sex = "none", condition = NONE,
    text = { fr = "Face à un rempart sans engin ; le quatrième engin renvoie tous les soldats des remparts, sauf ceux que protège leur capitaine, qui est renvoyé (règle du cœur du jeu, CA-T7).", en = "Facing a rampart without an engine; the fourth engine returns every soldier on the ramparts, except those their Captain protects, who is returned (a rule of the game's core, CA-T7)." } },
  { kind = "fee", name = { fr = "Fée", en = "Fairy" }, article = "la ", count = 1,
    zone = "outside", sex = "female", condition = NONE,
    text = { fr = "Attire hors les murs un personnage du château.", en = "Lures a character of the castle outside the walls." } },
  { kind = "heraut", name = { fr = "Héraut", en = "Herald" }, count = 1,
    zone = "outside", sex = "male", condition = NONE,
    text = { fr = "Tant qu'il est en jeu, le joueur qui a le Roi en main doit le jouer à son tour (règle du cœur du jeu).", en = "While he is in play, the player holding the King must play it on their turn (a rule of the game's core)." } },
  -- Ramparts (orange banner).
  { kind = "capitaine", name = { fr = "Capitaine", en = "Captain" }, count = 1, soldier = true,
    zone = "rampart", sex = "male", condition = NONE,
    text = { fr = "Est un soldat ; protège les autres soldats de son rempart (règles du cœur du jeu, CA-T6, CA-T7).", en = "Is a soldier; protects the other soldiers on his rampart (rules of the game's core, CA-T6, CA-T7)." } },
  { kind = "soldat", name = { fr = "Soldat", en = "Soldier" }, count = 13, soldier = true,
    zone = "rampart", sex = "male", condition = NONE,
    text = { fr = "Le quatrième soldat d'un rempart renvoie l'engin qui lui fait face (règle du cœur du jeu, CA-T7).", en = "The fourth soldier on a rampart returns the engine facing it (a rule of the game's core, CA-T7)." } },
  { kind = "traitre", name = { fr = "Traître", en = "Traitor" }, count = 1, soldier = true,
    zone = "rampart", sex = "male", condition = NONE,
    text = { fr = "Est un soldat ; renvoie une carte d'une case de cour voisine.", en = "Is a soldier; returns a card from a neighbouring courtyard square." } },
  -- Towers (blue banner).
  { kind = "alchimiste", name = { fr = "Alchimiste", en = "Alchemist" }, article = "l'", count = 1,
    zone = "tower", sex = "male", condition = NONE,
    text = { fr = "Échange deux cartes de votre main contre autant de cartes de l'échange.", en = "Exchange two cards of your hand for as many cards of the exchange." } },
  { kind = "archer", name = { fr = "Archer", en = "Archer" }, article = "l'", count = 1,
    zone = "tower", sex = "male", condition = NONE,
    text = { fr = "Renvoie une carte hors les murs.", en = "Returns a card from outside the walls." } },
  { kind = "fantome", name = { fr = "Fantôme", en = "Ghost" }, count = 1,
    zone = "tower", sex = "none", condition = { type = "occupied_tower" },
    text = { fr = "Arrive dans une tour occupée et renvoie la carte dont il prend la place (règle du cœur du jeu).", en = "Arrives in an occupied tower and returns the card whose place it takes (a rule of the game's core)." } },
  { kind = "guetteur", name = { fr = "Guetteur", en = "Lookout" }, count = 1,
    zone = "tower", sex = "male", condition = NONE,
    text = { fr = "Déplace un soldat ; sur la dernière case libre d'un rempart, celui-ci renvoie l'engin qui lui fait face.", en = "Moves a soldier; onto the last free square of a rampart, it returns the engine facing it." } },
  { kind = "magicien", name = { fr = "Magicien", en = "Magician" }, count = 1,
    zone = "tower", sex = "male", condition = NONE,
    text = { fr = "Renvoie n'importe quelle carte et l'ajoute à l'échange.", en = "Returns any card and adds it to the exchange." } },
  { kind = "sorciere", name = { fr = "Sorcière", en = "Witch" }, article = "la ", count = 1,
    zone = "tower", sex = "female", condition = NONE,
    text = { fr = "Envoie une carte de l'échange dans la main du joueur de votre choix.", en = "Sends a card of the exchange to the hand of the player of your choice." } },
  -- On a card (purple banner).
  { kind = "chevalier", name = { fr = "Chevalier", en = "Knight" }, count = 4,
    zone = "on_card", sex = "male", condition = NONE,
    text = { fr = "Se pose sur n'importe quelle carte en jeu et la protège (règle du cœur du jeu).", en = "Stands on any card in play and protects it (a rule of the game's core)." } },
}

for _, c in ipairs(CARDS) do
  c.effect = effects[c.kind]
  BY_KIND[c.kind] = c
end

return {
  id = "cartes",
  name = { fr = "Les cartes de Castel", en = "Castel's cards" },
  description = {
    fr = "Le tableau des 56 cartes de Castel (nombre, zone, sexe, condition de placement) et l'effet de chaque carte à son arrivée. Fait partie du jeu : chargé avec chaque partie, avant les règles maison.",
    en = "The table of Castel's 56 cards (count, zone, sex, placement condition) and each card's effect on arrival. Part of the game: loaded with every game, before any house rule.",
  },
  game = "castel",
  version = "1.0.0",
  part_of_game = true,
  changes = {
    {
      fr = "Les effets des cartes sont écrits en Lua dans ce fichier : le modifier change le jeu sans rien recompiler.",
      en = "The card effects are written in Lua in this file: editing it changes the game without rebuilding anything.",
    },
  },

  -- Its after_action is about placements only: draws and exchanges are played without it
  -- (inside the plugin in simulations).
  actions = { "place-*" },

  setup = function(ctx)
    for _, c in ipairs(CARDS) do
      command(ctx, "define_card", {
        kind = c.kind,
        count = c.count,
        zone = c.zone,
        sex = c.sex,
        condition = c.condition,
        soldier = c.soldier or false,
        effect = c.effect ~= nil,
      })
    end
    command(ctx, "enable_scripted_effects")
    command(ctx, "deal")
  end,

  after_action = function(ctx, seat, action, events)
    if string.sub(action.id, 1, 6) ~= "place-" then
      return
    end
    local pending = query(ctx, "turn").pending
    if pending == nil then
      return
    end
    local kind = kind_of(pending.card)
    local effect = BY_KIND[kind] and BY_KIND[kind].effect
    if effect and ctx.game.status().state ~= "finished" then
      effect(ctx, { card = pending.card, seat = pending.seat })
    end
    command(ctx, "end_effect")
  end,
}
