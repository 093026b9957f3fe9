/* AlakaSLAM on the host page: the start form's characters and sides, the serve and
   shot card picker with its preview, point, mulligan, ability and copy controls.
   Needs alakaslam.js (the words, the court drawing). */
"use strict";

/* --- the court's geometry: a copy of companion/games/alakaslam/court.py ------------
   The host page previews a shot before it is sent (its rows and net: alakaslam.js);
   tests/e2e/test_alakaslam_pages.py runs these functions for every card row and start
   cell against the Python ones. Only the host's page needs them: the spectator's stays
   light (tests/web/test_api.py LIGHT). */

TC.slam.HITS = ["R0", "R1", "R2", "R3", "B0", "B1", "B2", "B3"];
TC.slam.ENCHANTS = ["E1", "E2", "E3"];
TC.slam.STRAIGHT = "S2";

/** How far one card moves the ball hit by `side`: [columns, rows]. */
TC.slam.move = function (card, side) {
  if (TC.slam.ENCHANTS.includes(card)) return [0, 0];
  const forward = side === 0 ? 1 : -1;
  if (card === TC.slam.STRAIGHT) return [0, 2 * forward];
  return [card[0] === "R" ? -1 : 1, Number(card[1]) * forward];
};

/** Where the ball ends after `cards` (in order) hit by `side` from `start` ([col, row]). */
TC.slam.land = function (start, cards, side) {
  return cards.reduce(([col, row], card) => {
    const [dc, dr] = TC.slam.move(card, side);
    return [col + dc, row + dr];
  }, start);
};

TC.slam.onCourt = (cell, cols) => cell[0] >= 1 && cell[0] <= cols && cell[1] >= 1 && cell[1] <= TC.slam.ROWS;

/** "in", "out" or "net" for a shot by `side` landing on `cell`. */
TC.slam.judge = function (cell, side, cols) {
  if (!TC.slam.onCourt(cell, cols)) return "out";
  return (cell[1] <= TC.slam.NET ? 0 : 1) === side ? "net" : "in";
};

/** The server's back corner: the baseline at the red or blue edge. */
TC.slam.serveStart = (side, corner, cols) => [corner === "red" ? 1 : cols, side === 0 ? 1 : TC.slam.ROWS];

/** "in" or "bad_serve": a serve must land in, in a column other than its own. */
TC.slam.judgeServe = function (start, cell, side, cols) {
  return TC.slam.judge(cell, side, cols) !== "in" || cell[0] === start[0] ? "bad_serve" : "in";
};

/** "Ann (Simon as Austin)": the character whose ability the player uses now. */
TC.slam.who = function (v, p) {
  const pl = v.players[p];
  return pl.copy ? TC.t("Simon as {character}", {character: TC.slam.character(pl.copy)})
    : TC.slam.character(pl.character);
};

/** Where everyone stands for a serve from one corner (`at`: one corner of the view's
 *  serve_positions), the server and their partner by name, e.g.
 *  "Stand: Bea c4 r1, Ann c2 r2; receiver c1 r4, partner c3 r3". */
TC.slam.positions = function (at, names) {
  const one = (role, who) => `${who} ${TC.slam.cell(at[role])}`;
  const pair = (role, mate, who) => (at[mate] ? `${one(role, who[0])}, ${one(mate, who[1])}` : one(role, who[0]));
  // Each message on its own: the extractor reads no message inside another's arguments.
  const receivers = [TC.t("receiver"), TC.t("partner")];
  return TC.t("Stand: {servers}; {receivers}", {servers: pair("server", "server_mate", names),
    receivers: pair("receiver", "receiver_mate", receivers)});
};

/* --- the host's start form ------------------------------------------------------- */

/** Characters and sides per player, under the start form's player names (host.js's
 *  startExtras). The format follows the number of names filled in. Returns the
 *  function that adds `characters` (and `teams` past two players) to the options. */
TC.slam.startForm = function (box, game, current) {
  const el = TC.el;
  const ids = Object.keys(game.extras.characters);
  const before = current ? current.options : {};
  const DEFAULT_TEAMS = {3: [0, 1, 1], 4: [0, 0, 1, 1]};
  const inputs = () => [...document.querySelectorAll("#players input")];
  const format = el("p", {class: "hint format", "aria-live": "polite"});
  const sides = el("p", {class: "hint sides", "aria-live": "polite"});
  // The last match's characters first, then the others in the form's order: each player
  // a character of their own, however many more play this time.
  const chosen = [...(before.characters || []), ...ids.filter((id) => !(before.characters || []).includes(id))];
  const rows = inputs().map((_, i) => {
    const character = el("select", {name: "character", "aria-label": TC.t("Player {number}'s character", {number: i + 1})},
      ids.map((id) => el("option", {value: id, selected: chosen[i] === id},
        game.extras.characters[id])));
    const side = el("select", {name: "side", "aria-label": TC.t("Player {number}'s side", {number: i + 1}),
      onchange: () => update()}, [0, 1].map((s) => el("option", {value: s}, TC.t("Side {number}", {number: s + 1}))));
    const name = el("span", {class: "who"});
    return {row: el("div", {class: "slam-player", "data-slot": i}, name, character, side), name, character, side};
  });
  let count = null;
  const update = () => {
    const names = inputs().map((i) => i.value.trim());
    const active = rows.filter((_, i) => names[i]);
    const formats = {2: TC.t("2 players: singles, a 3 by 4 court"),
      3: TC.t("3 players: Canadian doubles (1 v 2), a 4 by 4 court"),
      4: TC.t("4 players: doubles (2 v 2), a 4 by 4 court")};
    format.textContent = formats[active.length] || TC.t("Name 2 to 4 players");
    rows.forEach((r, i) => {
      r.row.hidden = !names[i];
      r.name.textContent = names[i];
      r.side.hidden = active.length < 3;
    });
    // The contract's default sides for the new number of players (a current match's own, first).
    if (active.length !== count) {
      count = active.length;
      const same = before.teams && before.teams.length === count;
      active.forEach((r, k) => { r.side.value = String(same ? before.teams[k] : (DEFAULT_TEAMS[count] || [0, 1])[k] ?? 0); });
    }
    // Who "Side 1" and "Side 2" are, as the first-server menu names them.
    if (formats[active.length]) {
      const sideOf = (r, k) => (active.length > 2 ? Number(r.side.value) : k);
      const members = [0, 1].map((x) => active.filter((r, k) => sideOf(r, k) === x)
        .map((r) => r.name.textContent).join(" & ") || TC.t("nobody"));
      sides.textContent = TC.isolate(TC.t("Side 1: {first} · Side 2: {second}", {first: members[0], second: members[1]}));
    } else sides.textContent = "";
  };
  // Right under the names it belongs to, before the menu options.
  box.prepend(el("fieldset", {class: "slam-setup"}, el("legend", {}, TC.t("Characters and sides")),
    format, rows.map((r) => r.row), sides));
  update();
  const players = document.getElementById("players");
  players.oninput = () => { if (format.isConnected) update(); };
  return (options) => {
    const names = inputs().map((i) => i.value.trim());
    const active = rows.filter((_, i) => names[i]);
    options.characters = active.map((r) => r.character.value);
    if (active.length > 2) options.teams = active.map((r) => Number(r.side.value));
  };
};

/* --- the host's controls ----------------------------------------------------------- */

/** Every AlakaSLAM control the rules allow now; `send(action)` posts one. */
TC.slam.controls = function (box, match, send) {
  const v = match.view;
  const shape = (type) => match.legal.find((s) => s.type === type);
  // The point first: two taps in reach of the thumb, above the long card picker.
  const points = match.legal.filter((s) => s.type === "point");
  if (points.length) box.append(TC.slam.pointForm(v, points, send));
  const hit = shape("serve") || shape("shot");
  if (hit) box.append(TC.slam.hitForm(v, hit, send, match.id));
  else TC.slam.held = null;  // no picker now: nothing to keep or to say moved on
  const button = (text, action, attrs) => TC.el("button", {type: "button", onclick: () => send(action), ...attrs}, text);
  const ability = shape("ability");
  if (ability) {
    box.append(TC.el("fieldset", {"data-action": "ability"}, TC.el("legend", {}, TC.t("Once-per-point ability")),
      ability.player.map((p) => button(TC.t("{name}'s ability ({character})",
        {name: v.players[p].name, character: TC.slam.character(v.players[p].acts_as)}),
        {type: "ability", player: p}))));
  }
  const mulligan = shape("mulligan");
  if (mulligan) {
    box.append(TC.el("fieldset", {"data-action": "mulligan"}, TC.el("legend", {}, TC.t("Mulligan (before the serve)")),
      mulligan.player.map((p) => button(`${v.players[p].name} ${v.players[p].hand}→${v.players[p].hand - 1}`,
        {type: "mulligan", player: p},
        {"aria-label": TC.t("Mulligan {name}: hand {hand}", {name: v.players[p].name, hand: v.players[p].hand - 1})}))));
  }
  const copy = shape("copy");
  if (copy) {
    for (const p of copy.player) {
      const pick = TC.el("select", {name: "character", "aria-label": TC.t("Character {name} copies", {name: v.players[p].name})},
        copy.character.map((c) => TC.el("option", {value: c, selected: v.players[p].copy === c}, TC.slam.character(c))));
      // Before each serve Simon's player is reminded to choose (the serve is not blocked).
      const remind = v.due === "serve" && !v.players[p].copy ?
        TC.el("p", {class: "hint", "data-remind": "simon"},
          TC.t("{name} plays Simon: choose whom to copy before the serve", {name: v.players[p].name})) : null;
      box.append(TC.el("fieldset", {"data-action": "copy"},
        TC.el("legend", {}, TC.t("{name} (Simon) copies", {name: v.players[p].name})),
        remind, pick, TC.el("button", {type: "button", onclick: () => send({type: "copy", player: p, character: pick.value})},
          TC.t("Copy"))));
    }
  }
};

/** Award a point: one tap (the reason defaults to "no return"). Only what the legal
 *  `point` shapes offer: once the ball is in play, a button for the side that hit last
 *  alone; a bad serve only for the receivers, before the serve. */
TC.slam.pointForm = function (v, shapes, send) {
  const el = TC.el;
  const allowed = [0, 1].map((w) => shapes.filter((s) => s.winner.includes(w)).flatMap((s) => s.reason));
  const winners = [0, 1].filter((w) => allowed[w].length);
  const reason = el("select", {name: "reason", "aria-label": TC.t("Reason")},
    Object.entries(TC.slam.REASONS).filter(([k]) => winners.some((w) => allowed[w].includes(k)))
      .map(([k, label]) => el("option", {value: k}, label)));
  // In a rally, the point goes to the side that hit last (the other missed it).
  const likely = v.due === "shot" ? 1 - v.hitting_side : null;
  const hint = el("p", {class: "hint", "aria-live": "polite"});
  const buttons = winners.map((w) => el("button", {type: "button", class: w === likely ? "primary" : null,
    "data-winner": w, onclick: () => send({type: "point", winner: w, reason: reason.value})},
    TC.t("Point {side}", {side: v.sides[w].name})));
  const update = () => {
    buttons.forEach((b, i) => { b.disabled = !allowed[winners[i]].includes(reason.value); });
    const shut = winners.filter((w) => !allowed[w].includes(reason.value));
    hint.textContent = likely !== null
      ? TC.t("{side} hit last: the point is theirs", {side: v.sides[likely].name})
      : shut.length ? TC.t("A bad serve is the receivers' point ({side})", {side: v.sides[1 - v.serving_side].name}) : "";
  };
  reason.onchange = update;
  update();
  return el("fieldset", {"data-action": "point"}, el("legend", {}, TC.t("Point")), buttons, reason, hint);
};

/** The cards a player may put in a row: no Enchant-1 in doubles, the straight Hit-2 for Austin. */
TC.slam.cardsFor = function (v, p) {
  const pl = v.players[p];
  const austin = pl.acts_as === "austin";
  return [...TC.slam.HITS, ...TC.slam.ENCHANTS.filter((e) => !(e === "E1" && v.format === "doubles")),
    ...(austin ? [TC.slam.STRAIGHT] : [])];
};

/** Why the engine would refuse `cards` from player `p` under the Enchantments on them,
 *  in its words (companion/games/alakaslam/rules.py, _obey), or null: the row obeys one
 *  of them (any one may be obeyed), nothing binds `p`, or `ability` (Laurie's ability
 *  shot ignores Enchantments). `no_enchant_each` says which count is Rich's Enchant-2. */
TC.slam.refusal = function (v, p, cards, ability) {
  const o = v.obligations.find((x) => x.player === p);
  if (!o || ability || !cards.length) return null;
  const spells = cards.some((c) => TC.slam.ENCHANTS.includes(c));
  const rich = o.no_enchant_each;
  if (o.cards.some((n, i) => cards.length === n && !(rich[i] && spells))) return null;
  // As the engine's _under: the cards' names as printed, Rich's said as his.
  const under = TC.slam.and(o.cards.map((n, i) => (rich[i] ? TC.t("Rich's Enchant-{n}", {n})
    : `Enchant-${n}`)));  // i18n: not said (a card's name as printed)
  return TC.t("{name} is under {under}: play exactly {ways}", {name: v.players[p].name, under,
    ways: TC.slam.ways(o, (count) => TC.t("{cards}, no Enchantment", {cards: count}))});
};

/** What the serve or shot picker held when the page last drew it: {match, turn, pick, sent}.
 *  A new table state redraws the form; on the same turn (a mulligan, a copy) the picks
 *  stay, on another (a shot, a serve or a point recorded elsewhere) the picker says so.
 *  Picks belong to the match they were made in (`match`: its id): a new match, even of
 *  the same players, starts with nothing picked and nothing said. */
TC.slam.held = null;

/** What is due, as one string: the picks made for one turn are for that turn only. */
TC.slam.turn = (v, shape) => JSON.stringify([shape.type, v.due, v.rally, v.sides.map((s) => s.score),
  v.serving_side, v.hitting_side, v.players.map((p) => [p.name, p.character])]);

/**
 * The serve or shot form: who is at the ball (two-player sides), the corner of a serve,
 * a card row per hitter (tap cards to add, tap a chosen card to take it back), the
 * Enchantment's target when two opponents could be meant, Laurie's ability, and the
 * landing previewed on a mini court before anything is sent. `matchId`: the match the
 * form is drawn for (TC.slam.held).
 */
TC.slam.hitForm = function (v, shape, send, matchId) {
  const el = TC.el;
  const serving = shape.type === "serve";
  const side = serving ? v.serving_side : v.hitting_side;
  const mates = v.sides[side].players;
  const opponents = v.sides[1 - side].players;
  const cols = v.court.cols;
  let pick = {player: shape.player[0], corner: "red", rows: {}, enchant: {}, ability: {}};
  for (const p of mates) { pick.rows[p] = []; pick.enchant[p] = null; pick.ability[p] = false; }
  const turn = TC.slam.turn(v, shape);
  const before = TC.slam.held;
  const had = before && before.match === matchId && !before.sent &&
    Object.values(before.pick.rows).some((r) => r.length);
  // The same turn: the picks stay (only what is still allowed); another: say they went.
  const movedOn = had && before.turn !== turn;
  if (had && !movedOn && shape.player.includes(before.pick.player)) pick = before.pick;
  TC.slam.held = {match: matchId, turn, pick, sent: false};
  const form = el("fieldset", {class: "hit", "data-action": shape.type});
  const toggle = (text, pressed, onclick, attrs) => el("button", {type: "button", "aria-pressed": String(pressed),
    class: "toggle", onclick, ...attrs}, text);
  const hitters = () => [pick.player, ...mates.filter((p) => p !== pick.player)];
  const cards = () => hitters().flatMap((p) => pick.rows[p]);
  // Laurie's ability on any hit of hers: a serve, a shot, her cards as the Support.
  const laurie = (p) => !v.players[p].ability_used && v.players[p].acts_as === "laurie";
  const needsTarget = (p) => opponents.length > 1 && pick.rows[p].some((c) => TC.slam.ENCHANTS.includes(c));
  // Whom p's Enchantment may bind: in doubles the Support cannot bind the opponent the
  // player at the ball binds (two teammates never enchant the same opponent).
  const targets = (p) => p !== pick.player && v.format === "doubles" && needsTarget(pick.player)
    ? opponents.filter((o) => o !== pick.enchant[pick.player]) : opponents;
  /** A target no longer allowed is dropped; a single one left is the one meant. */
  const fitTargets = () => {
    for (const p of hitters()) {
      const left = targets(p);
      if (left.length === 1) pick.enchant[p] = left[0];
      else if (!left.includes(pick.enchant[p])) pick.enchant[p] = null;
    }
  };
  const refusals = () => hitters().map((p) => TC.slam.refusal(v, p, pick.rows[p], pick.ability[p]))
    .filter(Boolean);
  const ready = () => hitters().every((p) => pick.rows[p].length >= 1 && (!needsTarget(p) || pick.enchant[p] !== null)) &&
    !refusals().length;
  const isSpell = (c) => TC.slam.ENCHANTS.includes(c);
  // What a redrawn form keeps must still be allowed now.
  for (const p of mates) {
    if (!laurie(p)) pick.ability[p] = false;
    const allowed = TC.slam.cardsFor(v, p);
    pick.rows[p] = pick.rows[p].filter((c) => allowed.includes(c));
  }

  /** Where the cards put the ball, as the engine will judge it. */
  const preview = () => {
    const start = serving ? TC.slam.serveStart(side, pick.corner, cols) : v.ball;
    if (!cards().length) return {start, end: null, result: null};
    const end = TC.slam.land(start, cards(), side);
    const result = serving ? TC.slam.judgeServe(start, end, side, cols) : TC.slam.judge(end, side, cols);
    return {start, end, result};
  };

  const render = () => {
    TC.slam.held.sent = false;  // a change after a refused send: the picks are held again
    fitTargets();
    const focused = document.activeElement && form.contains(document.activeElement)
      ? document.activeElement.dataset.key : null;
    const name = (p) => v.players[p].name;
    const parts = [el("legend", {}, serving ? TC.t("{side} serve", {side: v.sides[side].name})
      : TC.t("{side} hit · rally {rally}", {side: v.sides[side].name, rally: v.rally}))];
    if (movedOn && !cards().length) {
      parts.push(el("p", {class: "moved", role: "status"},
        TC.t("The table moved on (a shot or a point was recorded elsewhere): pick again")));
    }
    if (mates.length > 1) {
      const label = serving ? TC.t("Server") : TC.t("At the ball");
      parts.push(el("div", {class: "row", role: "group", "aria-label": label},
        el("span", {class: "label"}, label),
        shape.player.map((p) => toggle(name(p), pick.player === p, () => { pick.player = p; render(); },
          {"data-key": `player-${p}`}))));
    }
    if (serving) {
      const corners = {red: TC.t("Red"), blue: TC.t("Blue")};
      parts.push(el("div", {class: "row", role: "group", "aria-label": TC.t("Corner")},
        el("span", {class: "label"}, TC.t("Corner")),
        ["red", "blue"].map((c) => toggle(corners[c], pick.corner === c,
          () => { pick.corner = c; render(); }, {class: `toggle corner-${c}`, "data-key": `corner-${c}`}))));
      if (v.serve_positions) parts.push(el("p", {class: "hint positions"}, TC.slam.positions(v.serve_positions[pick.corner],
        hitters().map((p) => v.players[p].name))));
    }
    for (const p of hitters()) {
      const row = pick.rows[p];
      const said = {character: TC.slam.who(v, p)};
      const role = p !== pick.player ? TC.t("({character}) Support", said)
        : serving ? TC.t("({character}) serves", said) : TC.t("({character}) at the ball", said);
      const duty = v.obligations.find((o) => o.player === p);
      const full = row.length >= 3 || (pick.ability[p] && row.length >= 1);
      const picker = el("div", {class: "picker", "data-player": p},
        el("p", {class: "who"}, el("strong", {}, name(p)), " ", role),
        duty ? el("p", {class: "duty"}, TC.slam.unbroken(TC.slam.obligation(v, duty))) : null,
        el("div", {class: "cardrow", role: "group", "aria-label": TC.t("{name}'s cards", {name: name(p)})},
          row.length ? row.map((c, i) => el("button", {type: "button", class: `pc chosen pc-${c[0]}`,
            "aria-label": TC.t("Take back {card}", {card: c}), "data-key": `chosen-${p}-${i}`,
            onclick: () => { row.splice(i, 1); render(); }}, c, el("span", {"aria-hidden": "true"}, " ×")))
            : el("span", {class: "hint"}, TC.t("Tap up to 3 cards"))),
        el("div", {class: "deck", role: "group", "aria-label": TC.t("Add a card to {name}'s row", {name: name(p)})},
          // One Enchantment a row: once it holds one, the others are not offered.
          TC.slam.cardsFor(v, p).filter((c) => !(isSpell(c) && row.some(isSpell))).map((c) => el("button", {type: "button", class: `pc pc-${c[0]}`,
            disabled: full, "data-card": c, "data-key": `add-${p}-${c}`, "aria-label": TC.t("Add {card}", {card: c}),
            onclick: () => { row.push(c); render(); }}, c))));
      if (needsTarget(p)) {
        picker.append(el("div", {class: "row", role: "group",
          "aria-label": TC.t("Whom {name}'s Enchantment binds", {name: name(p)})},
          el("span", {class: "label"}, TC.t("Enchant")),
          targets(p).map((o) => toggle(name(o), pick.enchant[p] === o, () => { pick.enchant[p] = o; render(); },
            {"data-key": `enchant-${p}-${o}`}))));
      }
      if (laurie(p)) {
        picker.append(el("label", {class: "ability"}, el("input", {type: "checkbox", checked: pick.ability[p],
          "data-key": `ability-${p}`, onchange: (e) => { pick.ability[p] = e.target.checked; row.splice(1); render(); }}),
        el("span", {}, TC.t("Laurie's ability: draw 3, play 1, Enchantments ignored"))));
      }
      parts.push(picker);
    }
    const pv = preview();
    const refused = refusals();
    // A row the rules refuse lands nowhere: the table would not record it.
    const lands = pv.end && {cell: TC.slam.cell(pv.end), result: TC.slam.RESULTS[pv.result],
      side: v.sides[1 - side].name};
    const landing = refused.length ? TC.t("Refused: {why}", {why: TC.slam.listed(refused)})
      : pv.end === null ? TC.t("Tap cards to see where the ball lands")
        : pv.result === "in" ? TC.t("Lands {cell}: {result}", lands)
          : TC.t("Lands {cell}: {result} — point to {side}", lands);
    const path = pv.end && !refused.length ? {from: pv.start, to: pv.end, result: pv.result} : null;
    parts.push(el("div", {class: "preview"},
      TC.slam.court({cols, ball: pv.start, path, names: [v.sides[0].name, v.sides[1].name],
        label: TC.t("Preview: from {cell}. {landing}.", {cell: TC.slam.cell(pv.start), landing})}),
      el("p", {class: `landing ${refused.length ? "refused" : pv.result || ""}`, "aria-live": "polite"},
        TC.slam.unbroken(landing))));
    parts.push(el("button", {type: "button", class: "primary send", disabled: !ready(), "data-key": "send",
      onclick: () => { TC.slam.held.sent = true; send(action()); }}, serving ? TC.t("Serve") : TC.t("Hit")));
    form.replaceChildren(...parts);
    const again = focused && form.querySelector(`[data-key="${focused}"]`);
    if (again && !again.disabled) again.focus();
  };

  const action = () => {
    const [p, q] = hitters();
    const body = {type: shape.type, player: p};
    if (serving) body.corner = pick.corner;
    body.cards = [...pick.rows[p]];
    if (needsTarget(p)) body.enchant = pick.enchant[p];
    if (q !== undefined) {
      body.support = {player: q, cards: [...pick.rows[q]]};
      if (needsTarget(q)) body.support.enchant = pick.enchant[q];
      if (pick.ability[q]) body.support.ability = true;
    }
    if (pick.ability[p]) body.ability = true;
    return body;
  };
  render();
  return form;
};

/* The host page's parts of AlakaSLAM (common.js, TC.hosts). */
TC.hosts.alakaslam = {controls: TC.slam.controls, startForm: TC.slam.startForm};
