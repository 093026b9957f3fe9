/* AlakaSLAM on the phones: the words, the court drawing and the board every page shows;
   the host's controls and the shot preview's geometry are in alakaslam-host.js. */
"use strict";

TC.slam = {};

/* What an undo took back: each kind of event's word. */
TC.eventWords.alakaslam = {serve: TC.t("serve"), shot: TC.t("shot"), point: TC.t("point"),
  mulligan: TC.t("mulligan"), copy: TC.t("copy"), ability: TC.t("ability")};

/* The court as companion/games/alakaslam/court.py has it (its geometry, for the host's
   preview, is in alakaslam-host.js). */
TC.slam.ROWS = 4;
/** The last row of side 0's half; the net lies just beyond it. */
TC.slam.NET = 2;

/* --- words ------------------------------------------------------------------------- */

TC.slam.character = (id) => id[0].toUpperCase() + id.slice(1);
TC.slam.FORMATS = {singles: TC.t("Singles"), canadian: TC.t("Canadian doubles"), doubles: TC.t("Doubles")};
/** Why a point was won, as the rules say it (rules.py REASON_WORDS). */
TC.slam.REASONS = {no_return: TC.t("no return"), declined: TC.t("declined"), out: TC.t("out"), net: TC.t("net"),
  bad_serve: TC.t("bad serve")};
/** Where a shot landed, in words; MARKS: as the court drawing writes it beside the landing. */
TC.slam.RESULTS = {in: TC.t("in"), out: TC.t("out"), net: TC.t("net: did not cross"), bad_serve: TC.t("bad serve")};
TC.slam.MARKS = {in: TC.t("IN"), out: TC.t("OUT"), net: TC.t("NET"), bad_serve: TC.t("BAD SERVE")};
/** A cell as people say it: "c2 r3" (column, row). */
TC.slam.cell = (c) => TC.t("c{col} r{row}", {col: c[0], row: c[1]});
/** Sentences one after the other, "a; b; c" (French writes " ; "). */
TC.slam.listed = (items) => items.reduce((said, item) => TC.t("{items}; {item}", {items: said, item}));
/** Names joined as the page's language joins them: "Ann and Bea". */
TC.slam.and = (items) => new Intl.ListFormat(TC.lang, {type: "conjunction"}).format(items.map(String));
/** An Enchantment's count of cards (1 to 3: Enchant-1 to Enchant-3). A script's words
 *  take no plural forms (scripts.po has none): each count is a message of its own, its
 *  noun in the form that count takes ("2 karty", "3 karty" in Polish). */
TC.slam.CARDS = {1: TC.t("1 card"), 2: TC.t("2 cards"), 3: TC.t("3 cards")};

/** The ways out of the Enchantments on a player, each count once (in the order they
 *  bind) with whether it forbids an Enchantment (Rich's: only where every binding with
 *  that count is his): [[2, true], [3, false]]. */
TC.slam.counts = function (o) {
  const each = o.no_enchant_each || o.cards.map(() => o.no_enchant);
  const counts = new Map();
  o.cards.forEach((n, i) => counts.set(n, (counts.has(n) ? counts.get(n) : true) && each[i]));
  return [...counts.entries()];
};

/** "2 cards, no Enchantment"; with two counts either satisfies: "2 or 3 cards", and one
 *  forbidding an Enchantment is said in full ("2 cards{sep}no Enchantment, or 3 cards":
 *  `noE` says it). */
TC.slam.ways = function (o, noE) {
  const sorted = TC.slam.counts(o);
  if (sorted.length === 1) {
    const [n, no] = sorted[0];
    return no ? TC.t("{cards}, no Enchantment", {cards: TC.slam.CARDS[n]}) : TC.slam.CARDS[n];
  }
  if (sorted.some(([, no]) => no)) {
    return sorted.map(([n, no]) => (no ? noE(TC.slam.CARDS[n]) : TC.slam.CARDS[n]))
      .reduceRight((rest, first) => TC.t("{first}, or {rest}", {first, rest}));
  }
  // Two counts, the larger 2 or 3: the noun in the form those take.
  return TC.t("{counts} cards", {counts: new Intl.ListFormat(TC.lang, {type: "disjunction"})
    .format(sorted.map(([n]) => String(n)))});
};

/** "Bea must play exactly 2 cards, no Enchantment (Enchanted by Cy)"; with two
 *  Enchantments either count satisfies, and Rich's "no Enchantment" holds only with his
 *  count: "exactly 2 cards with no Enchantment, or 3 cards"; two Enchant-2s: "2 cards". */
TC.slam.obligation = function (v, o) {
  const what = TC.slam.ways(o, (cards) => TC.t("{cards} with no Enchantment", {cards}));
  const name = v.players[o.player].name;
  const by = (o.by || []).map((b) => v.players[b].name);
  return by.length ? TC.t("{name} must play exactly {what} (Enchanted by {by})", {name, what, by: TC.slam.and(by)})
    : TC.t("{name} must play exactly {what}", {name, what});
};

/** `text` with each card's name as printed ("Enchant-2") kept on one line: a line may
 *  not break at its hyphen (alakaslam.css .slam-card). */
TC.slam.unbroken = (text) => text.split(/(Enchant-\d)/).map((part, i) => (i % 2
  ? TC.el("span", {class: "slam-card"}, part) : part));

/** The end-of-turn draws after the last shot, e.g. "Ann draws 2". */
TC.slam.drawText = function (v, d) {
  const name = v.players[d.player].name;
  const drawn = d.discard_first ? TC.t("{name} discards {discard}, then draws {draw}",
    {name, discard: d.discard_first, draw: d.draw}) : TC.t("{name} draws {draw}", {name, draw: d.draw});
  return d.from_discard ? TC.t("{draws} (may take 1 from the discard instead)", {draws: drawn}) : drawn;
};

/* --- the court drawing ----------------------------------------------------------- */

/**
 * The court, side 0's baseline (row 1) at the top, the red edge (col 1) on the left, as
 * the OLED draws it and in the order of the score rows above it,
 * with one cell of margin all round: a ball that lands out is drawn there (further out
 * is drawn at the margin's edge, its cell said in words).
 * `ball`: [col, row] | null; `path`: {from, to, result} | null, drawn `faded` once
 * the rally it belongs to is over, without its result when `unjudged` (it did not
 * decide the point the board shows); `label`: what it shows, in words; `names`: the
 * sides' names, side 0's first.
 */
/**
 * Where a path's result ("IN", "BAD SERVE") is written: {x, y, anchor}, the first spot,
 * nearest the landing first (beside it away from the path, beside it on the other side,
 * then under and over it), whose box (`width` units wide, 13 high) lies inside the drawing
 * and clear of the path with its arrowhead, of the row numbers inside the court's left
 * edge and, when the sides are `named`, of their names in the margins beyond its ends.
 */
TC.slam.resultPlace = function ({W, H, S, rows, x1, y1, x2, y2, width, named}) {
  const away = x1 < x2 ? 1 : x1 > x2 ? -1 : x2 < W / 2 ? 1 : -1;
  const xs = [{dx: 14 * away, anchor: away > 0 ? "start" : "end"},
    {dx: -14 * away, anchor: away > 0 ? "end" : "start"},
    {dx: 0, anchor: "middle"}, {dx: -4, anchor: "start"}, {dx: 4, anchor: "end"},
    {dx: -30, anchor: "start"}, {dx: 30, anchor: "end"}];
  const spots = [];
  for (const dy of [5, -13, 23, -22, 32, -31, 41, -40, 50, -49]) {
    for (const {dx, anchor} of xs) spots.push({x: x2 + dx, y: y2 + dy, anchor});
  }
  const box = (c) => {
    const left = c.anchor === "start" ? c.x : c.anchor === "end" ? c.x - width : c.x - width / 2;
    return {left, right: left + width, top: c.y - 11, bottom: c.y + 2};
  };
  const hits = (b, x, y, r) => x + r > b.left && x - r < b.right && y + r > b.top && y - r < b.bottom;
  const clear = (c, names) => {
    const b = box(c);
    if (b.left < 0 || b.right > W || b.top < 0 || b.bottom > H) return false;
    // The sides' names, written in the margins beyond the court's ends (a line or two).
    if (names && (b.top < 33 || b.bottom > H - 33)) return false;
    // The row numbers: a column of digits just inside the court's left edge.
    if (b.left < S + 14 && b.right > S + 2 && b.bottom > S && b.top < (rows + 1) * S) return false;
    // The column numbers: a row of digits just inside its foot.
    if (b.top < (rows + 1) * S && b.bottom > (rows + 1) * S - 12 && b.right > S && b.left < W - S) return false;
    if (hits(b, x2, y2, 10)) return false;  // the arrowhead and the ball
    for (let t = 0; t <= 1; t += 0.05) if (hits(b, x1 + (x2 - x1) * t, y1 + (y2 - y1) * t, 3)) return false;
    return true;
  };
  // Clear of the names too where any spot is (a ball out in a corner's margin has none).
  return (named && spots.find((c) => clear(c, true))) || spots.find((c) => clear(c, false)) || spots[0];
};

TC.slam.courts = 0;
TC.slam.court = function ({cols, ball, path, label, names, faded, unjudged}) {
  const S = 40;
  const W = (cols + 2) * S;
  const H = (TC.slam.ROWS + 2) * S;
  const rows = TC.slam.ROWS;
  const clampCol = (c) => Math.max(0, Math.min(cols + 1, c));
  const clampRow = (r) => Math.max(0, Math.min(rows + 1, r));
  const cx = (c) => clampCol(c) * S + S / 2;
  const cy = (r) => clampRow(r) * S + S / 2;
  const s = TC.svg;
  // Its own arrowhead: a page may show two courts, one of them hidden.
  const arrow = `arrow${++TC.slam.courts}`;
  const cells = [];
  for (let c = 1; c <= cols; c++) {
    for (let r = 1; r <= rows; r++) {
      const edge = c === 1 ? " red" : c === cols ? " blue" : "";
      cells.push(s("rect", {class: `cell${edge} half${r <= TC.slam.NET ? 0 : 1}`,
        x: c * S, y: r * S, width: S, height: S}));
    }
  }
  const parts = [
    s("title", {}, label),
    cells,
    s("rect", {class: "lines", x: S, y: S, width: cols * S, height: rows * S}),
    s("line", {class: "net", x1: S - 6, x2: (cols + 1) * S + 6, y1: (TC.slam.NET + 1) * S,
      y2: (TC.slam.NET + 1) * S}),
    s("text", {class: "edge red", x: S / 2, y: H / 2, transform: `rotate(-90 ${S / 2} ${H / 2})`}, TC.t("RED")),
    s("text", {class: "edge blue", x: W - S / 2, y: H / 2, transform: `rotate(90 ${W - S / 2} ${H / 2})`}, TC.t("BLUE")),
  ];
  for (let c = 1; c <= cols; c++) {
    // Inside the court's edges: the margin is where a ball out lands.
    parts.push(s("text", {class: "coord", x: cx(c), y: (rows + 1) * S - 2}, c));
  }
  for (let r = 1; r <= rows; r++) parts.push(s("text", {class: "coord", x: S + 6, y: cy(r) + 4}, r));
  if (names) {
    // A drawing cannot wrap: a pair too wide for the court is written a name a line in
    // the margin beyond its end; a line still too wide (13px semibold) is squeezed.
    const room = W - 8;
    const font = {size: 13, weight: 600};
    const wide = (text) => TC.textWidth(text, `${font.weight} ${font.size}px system-ui, sans-serif`);  // i18n: not said
    const lines = (name) => {
      const text = String(name);
      const cut = text.indexOf(" & "), a = text.slice(0, cut + 2);  // " &" kept if it fits
      return wide(text) <= room || cut < 0 ? [text] : [wide(a) <= room ? a : a.slice(0, -2), text.slice(cut + 3)];
    };
    const fit = (line) => TC.fitText(line, room, font);
    const side = (name, last) => lines(name).forEach((line, i, all) => parts.push(
      s("text", {class: "sidename", x: W / 2, y: last - 15 * (all.length - 1 - i), ...fit(line)},
        line)));
    side(names[0], lines(names[0]).length > 1 ? 30 : 16);
    side(names[1], H - 6);
  }
  if (path) {
    const bad = path.result !== "in";
    const [x1, y1, x2, y2] = [cx(path.from[0]), cy(path.from[1]), cx(path.to[0]), cy(path.to[1])];
    const word = TC.slam.MARKS[path.result];
    const place = TC.slam.resultPlace({W, H, S, rows, x1, y1, x2, y2, width: word.length * 10 + 4,
      named: !!names});
    parts.push(s("g", {class: `path ${bad ? "bad" : "good"}${faded ? " faded" : ""}`},
      s("circle", {class: "from", cx: x1, cy: y1, r: 4}),
      s("line", {x1, y1, x2, y2, "marker-end": `url(#${arrow})`}),
      unjudged ? null : s("text", {class: "result", x: place.x, y: place.y, "text-anchor": place.anchor}, word)));
  }
  if (ball) parts.push(s("circle", {class: "ball", cx: cx(ball[0]), cy: cy(ball[1]), r: 9}));
  return s("svg", {class: "court", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label},
    s("defs", {}, s("marker", {id: arrow, viewBox: "0 0 10 10", refX: 8, refY: 5,
      markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse"},
    s("path", {d: "M0,0 L10,5 L0,10 z", class: "arrowhead"}))),
    parts);
};

/** Whether the last shot did not decide the last point: the point was awarded with a
 *  button for a reason that shot does not show (an "in" shot decides a point only when
 *  it is not returned or the return is declined). */
TC.slam.shotBeforePoint = function (v) {
  const l = v.last_shot;
  const p = v.last_point;
  if (!l || !p || v.due === "shot") return false;
  return l.result === "in" ? !["no_return", "declined"].includes(p.reason) : p.reason !== l.result;
};

/** The court's text alternative: where the ball is and where the last shot went. */
TC.slam.courtLabel = function (v) {
  const c = v.court;
  // 3 or 4 columns by 4 rows (court.py): the nouns in the form those counts take.
  const out = [TC.t("Court, {cols} columns by {rows} rows.", {cols: c.cols, rows: c.rows})];
  out.push(v.ball ? TC.t("Ball at {cell}.", {cell: TC.slam.cell(v.ball)}) : TC.t("No ball in play."));
  if (v.last_shot) {
    const l = v.last_shot;
    const said = {side: v.sides[l.side].name, from: TC.slam.cell(l.from), to: TC.slam.cell(l.to),
      result: TC.slam.RESULTS[l.result]};
    out.push(TC.slam.shotBeforePoint(v) ? TC.t("Shot before the point was awarded by {side}: {from} to {to}.", said)
      : TC.t("Last shot by {side}: {from} to {to}, {result}.", said));
  }
  return out.join(" ");
};

/* --- the spectator board ---------------------------------------------------------- */

TC.boards.alakaslam = function (match) {
  const v = match.view;
  const over = v.winner !== null;
  const el = TC.el;
  const sideName = (i) => v.sides[i].name;
  const head = over ? TC.boards.alakaslam.title(match)
    : TC.t("{format} · first to {target}", {format: TC.slam.FORMATS[v.format], target: v.target});
  const rows = [0, 1].map((i) => el("tr", {class: v.winner === i ? "winner" : "", "data-side": i},
    el("td", {class: "serve", "aria-label": !over && v.serving_side === i ? TC.t("serves") : null},
      !over && v.serving_side === i ? "●" : ""),
    el("th", {scope: "row", class: `name side-${i}${TC.nameClass(sideName(i))}`}, sideName(i),
      v.winner === i ? [" ", el("span", {class: "chip won"}, TC.t("winner"))] : null),
    el("td", {class: "points"}, v.sides[i].score)));
  let now = "";
  if (!over && v.due === "serve") now = TC.t("{side} to serve", {side: sideName(v.serving_side)});
  else if (!over) now = TC.t("{side} to hit · rally {rally}", {side: sideName(v.hitting_side), rally: v.rally});
  const players = v.players.map((pl, p) => {
    const hits = !over && (v.due === "serve" ? v.serving_side : v.hitting_side) === pl.side;
    return el("li", {class: `side${pl.side}${hits ? " now" : ""}`},
      el("span", {class: "pname"}, pl.name),
      el("span", {class: "char"}, TC.slam.character(pl.character)),
      pl.copy ? el("span", {class: "chip"}, TC.t("copies {character}", {character: TC.slam.character(pl.copy)})) : null,
      pl.ability_used ? el("span", {class: "chip used"}, TC.t("ability used")) : null,
      // Counts with no noun to agree with them (a script's words take no plural forms).
      pl.mulligans ? el("span", {class: "chip"}, TC.t("mulligans: {n}", {n: pl.mulligans})) : null,
      v.stats && v.stats.abilities && v.stats.abilities[p]
        ? el("span", {class: "uses"}, TC.t("abilities this match: {n}", {n: v.stats.abilities[p]})) : null);
  });
  const last = [];
  // The point was awarded by a button for another reason: the shot is drawn unjudged.
  const before = TC.slam.shotBeforePoint(v);
  if (v.last_shot && !before) {
    const l = v.last_shot;
    last.push(TC.t("Last shot ({side}): {from} → {to}, {result}", {side: sideName(l.side),
      from: TC.slam.cell(l.from), to: TC.slam.cell(l.to), result: TC.slam.RESULTS[l.result]}));
  }
  // As rules.point_said (a pair: "score")
  if (v.last_point) {
    const w = v.last_point.winner;
    const said = {side: sideName(w), reason: TC.slam.REASONS[v.last_point.reason]};
    last.push(v.sides[w].players.length > 1 ? TC.t("Last point: {side} score: {reason}", said)
      : TC.t("Last point: {side} scores: {reason}", said));
  }
  const reminders = [];
  if (!over && v.draws && v.draws.length) {
    const draws = TC.slam.listed(v.draws.map((d) => TC.slam.drawText(v, d)));
    reminders.push(TC.t("Draw: {draws}", {draws}));
  }
  if (!over && v.refill && v.refill.length) {
    const discard = v.refill.filter((r) => r.discard_up_to).map((r) => v.players[r.player].name);
    if (discard.length) reminders.push(TC.t("{names} may discard up to 3", {names: TC.slam.and(discard)}));
    reminders.push(TC.t("Hands to: {hands}", {hands: v.refill.map((r) => `${v.players[r.player].name} ${r.hand}`).join(", ")}));
  }
  return el("div", {class: "slam"},
    el("p", {class: `head${over ? " over" : ""}`}, head),
    el("table", {class: "score"}, el("tbody", {}, rows)),
    now ? el("p", {class: "status now"}, now) : null,
    over ? TC.slam.stats(v) : null,
    el("ul", {class: "obligations", "aria-label": TC.t("Enchantments to obey")},
      v.obligations.map((o) => el("li", {}, TC.slam.unbroken(TC.slam.obligation(v, o))))),
    TC.slam.court({cols: v.court.cols, ball: v.ball, path: v.last_shot, label: TC.slam.courtLabel(v),
      names: [sideName(0), sideName(1)], faded: v.due !== "shot", unjudged: before}),
    el("p", {class: "status last"}, last.map((t, i) => [i ? el("br") : null, t])),
    el("ul", {class: "players", "aria-label": TC.t("Players")}, players),
    reminders.length ? el("p", {class: "reminders"}, reminders.map((t, i) => [i ? el("br") : null, t])) : null,
    over ? null : TC.slam.stats(v));
};

TC.boards.alakaslam.title = function (match) {
  const v = match.view;
  const [a, b] = v.sides;
  if (v.winner !== null) {
    const w = v.sides[v.winner];
    const score = `${w.score}-${v.sides[1 - v.winner].score}`;
    return w.players.length > 1 ? TC.t("{side} win {score}", {side: w.name, score})
      : TC.t("{name} wins {score}", {name: w.name, score});
  }
  return `${a.name} ${a.score}-${b.score} ${b.name}`;
};

/** The match's stats (a view key main adds): points won by reason, the longest rally. */
TC.slam.stats = function (v) {
  const st = v.stats;
  // Before the first point there is nothing to count.
  if (!st || !st.points || (v.winner === null && v.sides.every((s) => s.score === 0))) return null;
  // Reasons down, sides across (as every game's stats): a phone's width holds two columns.
  return TC.statsTable(TC.t("Points won by reason · longest rally {shots}", {shots: st.longest_rally}),
    v.sides.map((side) => side.name),
    Object.entries(TC.slam.REASONS).map(([r, label]) => [label, st.points.map((by) => by[r] || 0)]));
};
