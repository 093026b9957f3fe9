/* Alakazoo on the phones: the words, a portal drawn as its 3x3 grid, and the board every
   page shows; the host's start form and controls are in alakazoo-host.js. */
"use strict";

TC.zoo = {};
/* What an undo took back: each kind of event's word. */
TC.eventWords.alakazoo = {display: TC.t("display"), roll: TC.t("roll"), column: TC.t("column"),
  helper: TC.t("helper"), swap: TC.t("swap"), dark_power: TC.t("dark power"),
  end_turn: TC.t("end turn")};

/* --- words ------------------------------------------------------------------------- */

TC.zoo.REASONS = {no_rune: TC.t("no matching rune"), magic_power: TC.t("Magic Power over 6"),
  hand: TC.t("hand over 4"), helper: TC.t("the Helper's trick")};
TC.zoo.SCORED = {own: TC.t("own creature"), complete: TC.t("first to complete")};
/** The penalties the companion cannot see, by the view's reminders' reason. */
TC.zoo.REMINDERS = {hand: TC.t("More than 4 cards in hand: discard down to 4, +1 Dark Power"),
  magic_power: TC.t("More than 6 Magic Power tokens: give the extra back, +1 Dark Power")};

/** What each creature is written as inside a space: its initial, or its first two
 *  letters when a table's own names share an initial. */
TC.zoo.marks = function (names) {
  return names.map((n) => {
    const twins = names.filter((m) => m[0].toUpperCase() === n[0].toUpperCase()).length > 1;
    return twins ? n.slice(0, 2) : n[0].toUpperCase();
  });
};

/** A creature in its colour (the class crN, N = 1-6: a palette safe for colour-blind eyes,
 *  its letter too) as a chip: "Dragon". */
TC.zoo.chip = (v, c) => TC.el("span", {class: `zchip cr${c}`}, v.creatures[c - 1]);

/** The last event in words, e.g. "Ann +2: Dragon on space 5 · own creature, first on space 5". */
TC.zoo.lastText = function (v) {
  const l = v.last;
  if (!l) return null;
  const name = (p) => v.players[p].name;
  const who = name(l.player);
  if (l.type === "display") {
    const why = l.scored.map((k) => (k === "first" ? TC.t("first on space {space}", {space: l.space}) : TC.zoo.SCORED[k]));
    const said = TC.t("{name} +{points}: {creature} on space {space}",
      {name: who, points: l.scored.length, creature: v.creatures[l.creature - 1], space: l.space});
    return said + (why.length ? ` · ${why.join(", ")}` : "");
  }
  if (l.type === "dark_power") {
    return l.gained ? TC.t("{name} +1 Dark Power: {reason}", {name: who, reason: TC.zoo.REASONS[l.reason]})
      : TC.t("{name} is at {most} Dark Power already ({reason})", {name: who, most: v.dark_max, reason: TC.zoo.REASONS[l.reason]});
  }
  if (l.type === "swap") {
    const gave = v.creatures[l.gave - 1];
    const got = v.creatures[l.got - 1];
    if (l.other === null) {
      return TC.t("{name}'s Helper: {got} from the hand for {gave} on space {space}", {name: who, got, gave, space: l.space});
    }
    return TC.t("{name}'s Helper: {gave} on space {space} swapped with {other}'s {got}",
      {name: who, gave, space: l.space, other: name(l.other), got}) + (l.gained ? ", " + TC.t("+1 Dark Power") : "");
  }
  if (l.type === "roll") {
    const faces = l.faces.join(" · ");
    return l.device ? TC.t("{name} rolls the Spell Dice: {faces}", {name: who, faces})
      : TC.t("{name} rolled the Spell Dice: {faces}", {name: who, faces});
  }
  if (l.type === "column") return TC.t("{name} takes a column (or discards)", {name: who});
  if (l.type === "helper") {
    if (l.trick === "column") return TC.t("{name}'s Helper: a hand card for one from a column", {name: who});
    return TC.t("{name}'s Helper: a hand card swapped with another player's hand", {name: who}) +
      (l.gained ? ", " + TC.t("+1 Dark Power") : "");
  }
  if (l.type === "end_turn") {
    const parts = [TC.t("{name} ended the turn", {name: who})];
    for (const x of l.passes) {
      parts.push(x.reset ? TC.t("{name} passes: {most} Dark Power (back to 0)", {name: name(x.player), most: v.dark_max})
        : TC.t("{name} passes: {most} Dark Power", {name: name(x.player), most: v.dark_max}));
    }
    if (l.ended === "stuck") parts.push(TC.t("everyone is at 3 Dark Power: the game ends"));
    if (l.ended === "final_round") parts.push(TC.t("the final round is over: the Magic Jury scores"));
    return parts.join(" · ");
  }
  return null;
};

/** A Jury verdict on a line, from the view's jury.kinds: "=" one creature, "≠" all
 * different, "–" nothing (two of one creature, or a space left empty). */
TC.zoo.LINE_MARKS = {
  same: {mark: "=", text: TC.t("same creature")},
  different: {mark: "≠", text: TC.t("all different")},
  pair: {mark: "–", text: TC.t("two alike: nothing")},
  open: {mark: "–", text: TC.t("not full: nothing")},
};

/* --- a portal ------------------------------------------------------------------------ */

/**
 * Player p's portal as a 3x3 grid in reading order (space 1 top left): each creature on
 * its colour with its letter, an empty space with its number, a star where p was the
 * first on that space. Once judged, each row's verdict at its right and each column's
 * under it. `pick(space)`, when given, makes the empty spaces buttons (the host's).
 */
TC.zoo.portal = function (v, p, {pick, picked} = {}) {
  const el = TC.el;
  const pl = v.players[p];
  const marks = TC.zoo.marks(v.creatures);
  const empty = TC.t("empty");
  const j = pl.jury;
  const cells = [];
  const line = (kind, i) => {
    const m = TC.zoo.LINE_MARKS[j.kinds[kind][i]];
    return el("span", {class: `verdict ${j[kind][i] ? "won" : "none"}`, "data-line": `${kind}${i + 1}`,
      title: m.text, "aria-label": (kind === "rows" ? TC.t("row {line}: {verdict}", {line: i + 1, verdict: m.text})
        : TC.t("column {line}: {verdict}", {line: i + 1, verdict: m.text})) + (j[kind][i] ? ", +1" : "")},
    m.mark);
  };
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      const s = r * 3 + c + 1;
      const cr = pl.portal[s - 1];
      const first = v.firsts[String(s)] === p;
      const label = TC.t("space {space}: {creature}", {space: s, creature: cr ? v.creatures[cr - 1] : empty}) +
        (first ? ", " + TC.t("first here") : "");
      const attrs = {class: `sp${cr ? ` cr${cr}` : " empty"}${first ? " first" : ""}${picked === s ? " picked" : ""}`,
        "data-space": s, "aria-label": label};
      const text = [cr ? marks[cr - 1] : s, first ? el("span", {class: "star", "aria-hidden": "true"}, "★") : null];
      cells.push(pick && !cr ? el("button", {type: "button", ...attrs, "aria-pressed": picked === s ? "true" : "false",
        onclick: () => pick(s)}, text) : el("span", {...attrs, role: "img"}, text));
    }
    if (j) cells.push(line("rows", r));
  }
  if (j) for (let c = 0; c < 3; c++) cells.push(line("cols", c));
  return el("div", {class: `grid${j ? " judged" : ""}`, role: "group", "aria-label": TC.t("{name}'s portal", {name: pl.name})}, cells);
};

/** Dark Power as pips: "●●○" for 2 of 3. */
TC.zoo.pips = (v, n) => TC.el("span", {class: "pips", role: "img", "aria-label": TC.t("{n} Dark Power", {n}), title: TC.t("{n} Dark Power", {n})},
  Array.from({length: v.dark_max}, (_, i) => TC.el("span", {class: i < n ? "pip on" : "pip"})));

/* --- the spectator board ---------------------------------------------------------- */

TC.boards.alakazoo = function (match) {
  const v = match.view;
  const el = TC.el;
  const over = v.winner !== null;
  const won = (p) => over && v.winner.includes(p);
  const head = over ? TC.zoo.placesList(v)
    : el("p", {class: "head"}, TC.t("Round {round} · {name}'s turn", {round: v.round, name: v.players[v.current].name}));
  const banner = !over && v.final_round ? el("p", {class: "banner"},
    TC.t("Final round: {name} completed the portal", {name: v.players[v.ender].name})) : null;
  const players = v.players.map((pl, p) => el("section", {class: `zp${!over && v.current === p ? " now" : ""}${won(p) ? " winner" : ""}`,
    "data-player": p, "aria-current": !over && v.current === p ? "true" : null},
  el("h2", {class: `player-${p}`}, el("span", {class: "pname"}, TC.swatch(p, "player"), pl.name), el("span", {class: "pts", title: over ? TC.t("total") : TC.t("points")},
    over ? pl.total : pl.points)),
  el("p", {class: "meta"}, TC.zoo.chip(v, pl.creature), TC.zoo.pips(v, pl.dark_power)),
  TC.zoo.portal(v, p),
  pl.jury ? el("p", {class: "jury"}, pl.jury.pure
    ? TC.t("{points} in play + {jury} jury (pure +1) = {total}", {points: pl.points, jury: pl.jury.total, total: pl.total})
    : TC.t("{points} in play + {jury} jury = {total}", {points: pl.points, jury: pl.jury.total, total: pl.total})) : null,
  won(p) ? el("p", {class: "won"}, el("strong", {class: "chip won"}, v.winner.length > 1 ? TC.t("shared win") : TC.t("winner"))) : null));
  const now = [];
  // The dice once: the last line says them when the roll is the last thing that happened.
  if (!over && v.roll && !(v.last && v.last.type === "roll")) now.push(TC.t("Spell Dice: {faces}", {faces: v.roll.faces.join(" · ")}));
  if (!over && v.acted && !v.roll) now.push(TC.t("the turn's action is spent"));
  const firsts = Object.entries(v.firsts);
  return el("div", {class: "zoo"},
    head,
    banner,
    el("p", {class: "status last"}, v.last ? TC.zoo.lastText(v)
      : match.options.first_roll !== null && match.options.first_roll !== undefined
        ? TC.t("{name} starts (the device rolled)", {name: v.players[v.first_player].name})
        : TC.t("{name} starts", {name: v.players[v.first_player].name})),
    // Kept when empty: the Spell Dice arriving move no portal.
    over ? null : el("p", {class: "status now"}, now.join(" · ")),
    el("div", {class: "portals"}, players),
    over ? el("p", {class: "jury-key"}, TC.t("Magic Jury: each row and column of three is +1 if it shows one creature (=) or three different ones (≠), nothing (–) otherwise; a portal all of its own creature is pure: +1 more.")) : null,
    el("p", {class: "firsts"}, firsts.length ? TC.t("First on a space: {list}", {list: v.players.map((pl, p) => [pl.name,
      firsts.filter(([, q]) => q === p).map(([s]) => s)]).filter(([, ss]) => ss.length)
      .map(([n, ss]) => `${n} ${ss.join(" ")}`).join(" · ")})
      : TC.t("No space taken yet: the first creature on each scores +1")),
    el("p", {class: "legend", "aria-label": TC.t("Creatures")}, v.creatures.map((_, i) => TC.zoo.chip(v, i + 1))),
    TC.zoo.stats(v),
    !over ? el("p", {class: "reminders"}, v.reminders.map((r, i) => [i ? el("br") : null,
      TC.zoo.REMINDERS[r.reason] || r.text])) : null);
};

/** The final places, best first: each player's seat and place (1 for first), placed by
 *  total with equal totals sharing a place, as the game's standing places them
 *  (companion/games/alakazoo/card.py). */
TC.zoo.places = (v) => v.players.map((pl, p) => ({p, total: pl.total,
  place: 1 + v.players.filter((q) => q.total > pl.total).length}))
  .sort((a, b) => a.place - b.place || a.p - b.p);

/** "1st", "2nd", "3rd", "4th" (the page's language's way); "=1st" for a place two players share. */
TC.zoo.ordinal = (place, shared) => (shared ? "=" : "") +
  [TC.t("1st"), TC.t("2nd"), TC.t("3rd"), TC.t("4th")][place - 1];

/** The end of a match as a short list, a row a player: place, name, total; the winners'
 *  rows marked. Names wrap inside their own column, so a 16-letter name never pushes the
 *  totals off a 320 px screen. */
TC.zoo.placesList = function (v) {
  const el = TC.el;
  const rows = TC.zoo.places(v);
  const shared = (place) => rows.filter((r) => r.place === place).length > 1;
  return el("ol", {class: "head over places", "aria-label": TC.t("Final places")}, rows.map(({p, place, total}) => {
    const rank = TC.zoo.ordinal(place, shared(place));
    // Spaces between the cells (a grid does not draw them): read and copied as "1st Ann 18".
    return el("li", {class: v.winner.includes(p) ? "won" : null, "data-player": p},
      el("span", {class: "place"}, rank), " ",
      el("span", {class: "who"}, TC.swatch(p, "player"), el("span", {class: "name"}, v.players[p].name)), " ",
      el("span", {class: "total"}, total));
  }));
};

TC.boards.alakazoo.title = function (match) {
  const v = match.view;
  if (v.winner !== null) {
    const names = v.winner.map((p) => v.players[p].name);
    const total = v.players[v.winner[0]].total;
    return names.length > 1 ? TC.t("Shared win: {names} with {total}", {names: names.join(" & "), total})
      : TC.t("{name} wins with {total}", {name: names[0], total});
  }
  return v.players.map((pl) => `${pl.name} ${pl.points}`).join(" · ");
};

/** The match's stats: points by source, Dark Power taken, forced passes, swaps, rolls. */
TC.zoo.stats = function (v) {
  const st = v.stats;
  const el = TC.el;
  const cols = [["own", TC.t("own")], ["first", TC.t("first")], ["complete", TC.t("done")]];
  return el("table", {class: "stats"},
    el("caption", {}, TC.t("Points by source (own creature, first on a space, first to complete) · Dark Power taken · forced passes")),
    el("thead", {}, el("tr", {}, el("td", {}), cols.map(([, t]) => el("th", {scope: "col"}, t)),
      v.winner ? el("th", {scope: "col"}, TC.t("jury")) : null,
      el("th", {scope: "col"}, TC.t("DP")), el("th", {scope: "col"}, TC.t("pass")))),
    el("tbody", {}, v.players.map((pl, p) => el("tr", {},
      el("th", {scope: "row", class: "who"}, pl.name), cols.map(([k]) => el("td", {}, st.points[p][k])),
      v.winner ? el("td", {}, pl.jury ? pl.jury.total : 0) : null,
      el("td", {}, st.dark_power[p]), el("td", {}, st.forced_passes[p])))));
};
