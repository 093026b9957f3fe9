// i18n: words not marked yet (issue #40)
/* Alakazoo on the phones: the words, a portal drawn as its 3x3 grid, and the board every
   page shows; the host's start form and controls are in alakazoo-host.js. */
"use strict";

TC.zoo = {};

/* --- words ------------------------------------------------------------------------- */

TC.zoo.REASONS = {no_rune: "no matching rune", magic_power: "Magic Power over 6",
  hand: "hand over 4", helper: "the Helper's trick"};
TC.zoo.SCORED = {own: "own creature", first: "first on space", complete: "first to complete"};

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
    const why = l.scored.map((k) => (k === "first" ? `first on space ${l.space}` : TC.zoo.SCORED[k]));
    return `${who} +${l.scored.length}: ${v.creatures[l.creature - 1]} on space ${l.space}` +
      (why.length ? ` · ${why.join(", ")}` : "");
  }
  if (l.type === "dark_power") {
    return l.gained ? `${who} +1 Dark Power: ${TC.zoo.REASONS[l.reason]}`
      : `${who} is at ${v.dark_max} Dark Power already (${TC.zoo.REASONS[l.reason]})`;
  }
  if (l.type === "swap") {
    const gave = v.creatures[l.gave - 1];
    const got = v.creatures[l.got - 1];
    return l.other === null ? `${who}'s Helper: ${got} from the hand for ${gave} on space ${l.space}`
      : `${who}'s Helper: ${gave} on space ${l.space} swapped with ${name(l.other)}'s ${got}` +
        (l.gained ? ", +1 Dark Power" : "");
  }
  if (l.type === "roll") {
    return `${who} ${l.device ? "rolls" : "rolled"} the Spell Dice: ${l.faces.join(" · ")}`;
  }
  if (l.type === "column") return `${who} takes a column (or discards)`;
  if (l.type === "helper") {
    return l.trick === "column" ? `${who}'s Helper: a hand card for one from a column`
      : `${who}'s Helper: a hand card swapped with another player's hand${l.gained ? ", +1 Dark Power" : ""}`;
  }
  if (l.type === "end_turn") {
    const parts = [`${who} ended the turn`];
    for (const x of l.passes) {
      parts.push(`${name(x.player)} passes: ${v.dark_max} Dark Power${x.reset ? " (back to 0)" : ""}`);
    }
    if (l.ended === "stuck") parts.push("everyone is at 3 Dark Power: the game ends");
    if (l.ended === "final_round") parts.push("the final round is over: the Magic Jury scores");
    return parts.join(" · ");
  }
  return null;
};

/** A Jury verdict on a line, from the view's jury.kinds: "=" one creature, "≠" all
 * different, "–" nothing (two of one creature, or a space left empty). */
TC.zoo.LINE_MARKS = {
  same: {mark: "=", text: "same creature"},
  different: {mark: "≠", text: "all different"},
  pair: {mark: "–", text: "two alike: nothing"},
  open: {mark: "–", text: "not full: nothing"},
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
  const j = pl.jury;
  const cells = [];
  const line = (kind, i) => {
    const m = TC.zoo.LINE_MARKS[j.kinds[kind][i]];
    return el("span", {class: `verdict ${j[kind][i] ? "won" : "none"}`, "data-line": `${kind}${i + 1}`,
      title: m.text, "aria-label": `${kind === "rows" ? "row" : "column"} ${i + 1}: ${m.text}${j[kind][i] ? ", +1" : ""}`},
    m.mark);
  };
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      const s = r * 3 + c + 1;
      const cr = pl.portal[s - 1];
      const first = v.firsts[String(s)] === p;
      const label = `space ${s}: ${cr ? v.creatures[cr - 1] : "empty"}${first ? ", first here" : ""}`;
      const attrs = {class: `sp${cr ? ` cr${cr}` : " empty"}${first ? " first" : ""}${picked === s ? " picked" : ""}`,
        "data-space": s, "aria-label": label};
      const text = [cr ? marks[cr - 1] : s, first ? el("span", {class: "star", "aria-hidden": "true"}, "★") : null];
      cells.push(pick && !cr ? el("button", {type: "button", ...attrs, "aria-pressed": picked === s ? "true" : "false",
        onclick: () => pick(s)}, text) : el("span", {...attrs, role: "img"}, text));
    }
    if (j) cells.push(line("rows", r));
  }
  if (j) for (let c = 0; c < 3; c++) cells.push(line("cols", c));
  return el("div", {class: `grid${j ? " judged" : ""}`, role: "group", "aria-label": `${pl.name}'s portal`}, cells);
};

/** Dark Power as pips: "●●○" for 2 of 3. */
TC.zoo.pips = (v, n) => TC.el("span", {class: "pips", role: "img", "aria-label": `${n} Dark Power`, title: `${n} Dark Power`},
  Array.from({length: v.dark_max}, (_, i) => TC.el("span", {class: i < n ? "pip on" : "pip"})));

/* --- the spectator board ---------------------------------------------------------- */

TC.boards.alakazoo = function (match) {
  const v = match.view;
  const el = TC.el;
  const over = v.winner !== null;
  const won = (p) => over && v.winner.includes(p);
  const head = over ? TC.zoo.placesList(v)
    : el("p", {class: "head"}, `Round ${v.round} · ${v.players[v.current].name}'s turn`);
  const banner = !over && v.final_round ? el("p", {class: "banner"},
    `Final round: ${v.players[v.ender].name} completed the portal`) : null;
  const players = v.players.map((pl, p) => el("section", {class: `zp${!over && v.current === p ? " now" : ""}${won(p) ? " winner" : ""}`,
    "data-player": p, "aria-current": !over && v.current === p ? "true" : null},
  el("h2", {class: `player-${p}`}, el("span", {class: "pname"}, TC.swatch(p, "player"), pl.name), el("span", {class: "pts", title: over ? "total" : "points"},
    over ? pl.total : pl.points)),
  el("p", {class: "meta"}, TC.zoo.chip(v, pl.creature), TC.zoo.pips(v, pl.dark_power)),
  TC.zoo.portal(v, p),
  pl.jury ? el("p", {class: "jury"}, `${pl.points} in play + ${pl.jury.total} jury` +
    (pl.jury.pure ? " (pure +1)" : "") + ` = ${pl.total}`) : null,
  won(p) ? el("p", {class: "won"}, el("strong", {class: "chip won"}, v.winner.length > 1 ? "shared win" : "winner")) : null));
  const now = [];
  // The dice once: the last line says them when the roll is the last thing that happened.
  if (!over && v.roll && !(v.last && v.last.type === "roll")) now.push(`Spell Dice: ${v.roll.faces.join(" · ")}`);
  if (!over && v.acted && !v.roll) now.push("the turn's action is spent");
  const firsts = Object.entries(v.firsts);
  return el("div", {class: "zoo"},
    head,
    banner,
    el("p", {class: "status last"}, v.last ? TC.zoo.lastText(v) : `${v.players[v.first_player].name} starts` +
      (match.options.first_roll !== null && match.options.first_roll !== undefined ? " (the device rolled)" : "")),
    // Kept when empty: the Spell Dice arriving move no portal.
    over ? null : el("p", {class: "status now"}, now.join(" · ")),
    el("div", {class: "portals"}, players),
    over ? el("p", {class: "jury-key"}, "Magic Jury: each row and column of three is +1 if it shows one creature (=) " +
      "or three different ones (≠), nothing (–) otherwise; a portal all of its own creature is pure: +1 more.") : null,
    el("p", {class: "firsts"}, firsts.length ? `First on a space: ${v.players.map((pl, p) => [pl.name,
      firsts.filter(([, q]) => q === p).map(([s]) => s)]).filter(([, ss]) => ss.length)
      .map(([n, ss]) => `${n} ${ss.join(" ")}`).join(" · ")}`
      : "No space taken yet: the first creature on each scores +1"),
    el("p", {class: "legend", "aria-label": "Creatures"}, v.creatures.map((_, i) => TC.zoo.chip(v, i + 1))),
    TC.zoo.stats(v),
    !over ? el("p", {class: "reminders"}, v.reminders.map((r, i) => [i ? el("br") : null, r.text])) : null);
};

/** The final places, best first: each player's seat and place (1 for first), placed by
 *  total with equal totals sharing a place, as the game's standing places them
 *  (companion/games/alakazoo/card.py). */
TC.zoo.places = (v) => v.players.map((pl, p) => ({p, total: pl.total,
  place: 1 + v.players.filter((q) => q.total > pl.total).length}))
  .sort((a, b) => a.place - b.place || a.p - b.p);

/** "1st", "2nd", "3rd", "4th"; "=1st" for a place two players share. */
TC.zoo.ordinal = (place, shared) => `${shared ? "=" : ""}${place}${["st", "nd", "rd"][place - 1] || "th"}`;

/** The end of a match as a short list, a row a player: place, name, total; the winners'
 *  rows marked. Names wrap inside their own column, so a 16-letter name never pushes the
 *  totals off a 320 px screen. */
TC.zoo.placesList = function (v) {
  const el = TC.el;
  const rows = TC.zoo.places(v);
  const shared = (place) => rows.filter((r) => r.place === place).length > 1;
  return el("ol", {class: "head over places", "aria-label": "Final places"}, rows.map(({p, place, total}) => {
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
    return `${names.length > 1 ? `Shared win: ${names.join(" & ")}` : `${names[0]} wins`} with ${v.players[v.winner[0]].total}`;
  }
  return v.players.map((pl) => `${pl.name} ${pl.points}`).join(" · ");
};

/** The match's stats: points by source, Dark Power taken, forced passes, swaps, rolls. */
TC.zoo.stats = function (v) {
  const st = v.stats;
  const el = TC.el;
  const cols = [["own", "own"], ["first", "first"], ["complete", "done"]];
  return el("table", {class: "stats"},
    el("caption", {}, "Points by source (own creature, first on a space, first to complete) · Dark Power taken · forced passes"),
    el("thead", {}, el("tr", {}, el("td", {}), cols.map(([, t]) => el("th", {scope: "col"}, t)),
      v.winner ? el("th", {scope: "col"}, "jury") : null,
      el("th", {scope: "col"}, "DP"), el("th", {scope: "col"}, "pass"))),
    el("tbody", {}, v.players.map((pl, p) => el("tr", {},
      el("th", {scope: "row", class: "who"}, pl.name), cols.map(([k]) => el("td", {}, st.points[p][k])),
      v.winner ? el("td", {}, pl.jury ? pl.jury.total : 0) : null,
      el("td", {}, st.dark_power[p]), el("td", {}, st.forced_passes[p])))));
};
