// i18n: words not marked yet (issue #40)
/* Center Court on the phones: its board (the host's controls are in host.js). */
"use strict";

TC.boards["center-court"] = function (match) {
  const el = TC.el;
  const v = match.view;
  const over = v.winner !== null;
  let head;
  // Once won, nothing is being played: the sets, from the winner's side.
  if (over) head = TC.boards["center-court"].title(match);
  else {
    const parts = [`Set ${v.set_number}`];
    if (v.match_tiebreak) parts.push("Match tiebreak");
    else if (v.tiebreak) parts.push("Tiebreak");
    else if (v.deuce) parts.push("Deuce");
    else if (v.advantage !== null) parts.push(`Advantage ${v.players[v.advantage]}`);
    head = parts.join(" · ");
  }
  const done = v.sets.length;
  const rows = [0, 1].map((p) => {
    const serving = !over && v.server === p;
    return el("tr", {class: [v.winner === p ? "winner" : "", serving ? "serving" : ""].join(" ").trim() || null,
      "data-player": p},
    el("td", {class: "serve"}, serving ? el("span", {class: "ball", title: "serving"}, "●",
      el("span", {class: "sr-only"}, " serving")) : null),
    el("th", {scope: "row", class: `name side-${p}${TC.nameClass(v.players[p])}`}, v.players[p],
      v.winner === p ? [" ", el("span", {class: "chip won"}, "winner")] : null),
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
    done ? el("th", {scope: "colgroup", colspan: done, class: "col-set"}, done === 1 ? "Set" : "Sets") : null,
    over ? null : el("th", {scope: "col", class: "col-games"}, v.tiebreak ? "Gms" : "Games"),
    over ? null : el("th", {scope: "col", class: "col-points"}, v.tiebreak ? "TB" : "Points"));
  // The call has a line of its own, kept when empty: its arrival moves nothing.
  let call = null;
  if (v.call === "double_fault") call = "DOUBLE FAULT";
  // serve is 2 exactly while a second serve is due: after a first-serve fault,
  // never with the ball in play.
  else if (v.serve === 2) call = "FAULT · second serve";
  const status = [];
  // The serve belongs to the point being played (a rally on, a second serve due, the call
  // of its double fault): once the point is won, the next point has none yet.
  if (v.last_serve && (v.in_play || v.serve === 2 || v.call)) {
    const s = v.last_serve;
    status.push(`Last serve: ${s.card}` + (v.rally_serve === 2 ? " (2nd)" : "") +
      (s.roll === null ? "" : `, die ${s.roll}`));
  }
  if (v.in_play) status.push(`Ball in play: ${v.volley} to ${v.players[v.to_return]}`);
  // Between points: who serves next, on the line the serve will take.
  if (!over && !status.length && !call) status.push(`${v.players[v.server]} to serve`);
  const st = v.stats;
  const stats = TC.statsTable("Match stats", v.players, [
    ["Points won", st.map((s) => s.points_won)],
    ["Won on serve", st.map((s) => s.serve_points_won)],
    ["Faults", st.map((s) => s.faults)],
    ["Double faults", st.map((s) => s.double_faults)],
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
    el("p", {class: "rally"}, "Longest rally: ",
      el("strong", {}, v.longest_rally ? `${v.longest_rally} shot${v.longest_rally === 1 ? "" : "s"}`
        : over ? "none" : "none yet")));
};

TC.boards["center-court"].title = function (match) {
  const v = match.view;
  // Once won, the board's head says the same.
  if (v.winner !== null) return `${v.players[v.winner]} wins ${v.final_score}`;
  const sets = v.sets.map((s) => `${s[0]}-${s[1]}`);
  return `${v.players[0]} v ${v.players[1]}: ${[...sets, `${v.games[0]}-${v.games[1]}`].join(" ")}, ` +
    `${v.points[0]}-${v.points[1]}`;
};
