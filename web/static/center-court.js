/* Center Court on the phones: its board (the host's controls are in host.js). */
"use strict";

/* What an undo took back: each kind of event's word. */
TC.eventWords["center-court"] = {serve: TC.t("serve"), return: TC.t("return"), point: TC.t("point")};

TC.boards["center-court"] = function (match) {
  const el = TC.el;
  const v = match.view;
  const over = v.winner !== null;
  let head;
  // Once won, nothing is being played: the sets, from the winner's side.
  if (over) head = TC.boards["center-court"].title(match);
  else {
    const parts = [TC.t("Set {number}", {number: v.set_number})];
    if (v.match_tiebreak) parts.push(TC.t("Match tiebreak"));
    else if (v.tiebreak) parts.push(TC.t("Tiebreak"));
    else if (v.deuce) parts.push(TC.t("Deuce"));
    else if (v.advantage !== null) parts.push(TC.t("Advantage {name}", {name: v.players[v.advantage]}));
    head = parts.join(" · ");
  }
  const done = v.sets.length;
  const rows = [0, 1].map((p) => {
    const serving = !over && v.server === p;
    return el("tr", {class: [v.winner === p ? "winner" : "", serving ? "serving" : ""].join(" ").trim() || null,
      "data-player": p},
    el("td", {class: "serve"}, serving ? el("span", {class: "ball", title: TC.t("serving")}, "●",
      el("span", {class: "sr-only"}, " " + TC.t("serving"))) : null),
    el("th", {scope: "row", class: `name side-${p}${TC.nameClass(v.players[p])}`}, v.players[p],
      v.winner === p ? [" ", el("span", {class: "chip won"}, TC.t("winner"))] : null),
    v.sets.map((s, i) => {
      const tb = v.set_tiebreaks[i];
      // A match tiebreak is recorded as a set won 1-0: show its points instead.
      if (tb && Math.max(...s) === 1) return el("td", {class: "set mtb"}, tb[p]);
      return el("td", {class: "set"}, s[p], tb ? el("sup", {}, tb[p]) : null);
    }),
    over ? null : el("td", {class: "games"}, v.games[p]),
    over ? null : el("td", {class: "points"}, v.points[p]));
  });
  const heads = el("tr", {},
    el("td", {}), el("td", {}),
    done ? el("th", {scope: "colgroup", colspan: done, class: "col-set"}, done === 1 ? TC.t("Set") : TC.t("Sets")) : null,
    // "Gms", not "Games": the pages' "Games" are matches played (players.js), other words
    // in French, Spanish and Polish than a set's games.
    over ? null : el("th", {scope: "col", class: "col-games"}, TC.t("Gms")),
    over ? null : el("th", {scope: "col", class: "col-points"}, v.tiebreak ? TC.t("TB") : TC.t("Points")));
  // The call has a line of its own, kept when empty: its arrival moves nothing.
  let call = null;
  if (v.call === "double_fault") call = TC.t("DOUBLE FAULT");
  // serve is 2 exactly while a second serve is due: after a first-serve fault,
  // never with the ball in play.
  else if (v.serve === 2) call = TC.t("FAULT · second serve");
  const status = [];
  // The serve belongs to the point being played (a rally on, a second serve due, the call
  // of its double fault): once the point is won, the next point has none yet.
  if (v.last_serve && (v.in_play || v.serve === 2 || v.call)) {
    const s = v.last_serve;
    const second = v.rally_serve === 2;
    status.push(s.roll === null
      ? (second ? TC.t("Last serve: {card} (2nd)", {card: s.card}) : TC.t("Last serve: {card}", {card: s.card}))
      : (second ? TC.t("Last serve: {card} (2nd), die {roll}", {card: s.card, roll: s.roll})
        : TC.t("Last serve: {card}, die {roll}", {card: s.card, roll: s.roll})));
  }
  if (v.in_play) status.push(TC.t("Ball in play: {volley} to {name}", {volley: v.volley, name: v.players[v.to_return]}));
  // Between points: who serves next, on the line the serve will take.
  if (!over && !status.length && !call) status.push(TC.t("{name} to serve", {name: v.players[v.server]}));
  const st = v.stats;
  const stats = TC.statsTable(TC.t("Match stats"), v.players, [
    [TC.t("Points won"), st.map((s) => s.points_won)],
    [TC.t("Won on serve"), st.map((s) => s.serve_points_won)],
    [TC.t("Faults"), st.map((s) => s.faults)],
    [TC.t("Double faults"), st.map((s) => s.double_faults)],
  ]);
  return el("div", {class: `cc${over ? " over" : ""}`},
    el("p", {class: `head${over ? " over" : ""}`}, head),
    el("table", {class: "score"}, el("thead", {}, heads), el("tbody", {}, rows)),
    // The call and the serve's line share one block kept two lines high, empty or not:
    // their arrival moves nothing, and an empty board has no wide gap under the score.
    // Once won, nothing more arrives: no block kept for it.
    over && !status.length ? null : el("p", {class: "callout"},
      call ? el("strong", {class: "call"}, call) : null,
      el("span", {class: "status"}, status.join(" · "))),
    stats,
    // A script says no count's forms (scripts.po has no plurals): the unit is in the label.
    el("p", {class: "rally"}, TC.t("Longest rally (shots):") + " ",
      el("strong", {}, v.longest_rally ? String(v.longest_rally)
        : over ? TC.t("none") : TC.t("none yet"))));
};

TC.boards["center-court"].title = function (match) {
  const v = match.view;
  // Once won, the board's head says the same.
  if (v.winner !== null) return TC.t("{name} wins {score}", {name: v.players[v.winner], score: v.final_score});
  const sets = v.sets.map((s) => `${s[0]}-${s[1]}`);
  return TC.t("{first} v {second}: {games}, {points}", {first: v.players[0], second: v.players[1],
    games: [...sets, `${v.games[0]}-${v.games[1]}`].join(" "), points: `${v.points[0]}-${v.points[1]}`});
};
