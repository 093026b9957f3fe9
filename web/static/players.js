"use strict";
/* The leaderboards (/players: GET /api/players) and one player's page (/players/<name>:
   GET /api/players/<name>, the rating's course drawn with the timeline chart code). */
(function () {
  const link = (name) => TC.el("a", {href: `/players/${encodeURIComponent(name)}`}, name);
  const form = (f) => TC.el("span", {class: "form", title: TC.t("latest results, oldest first: W won, D shared first place, L lost")}, f.join("") || "–");
  const rating = (r) => `${TC.number(r.rating)}${r.provisional ? "*" : ""}`;
  const fail = (box, text) => box.replaceChildren(TC.el("p", {class: "error"}, text));

  function boards(box) {
    TC.readJSON("/api/players").then((body) => {
      const shown = body.games.filter((g) => g.players.length);
      if (!shown.length) { box.replaceChildren(TC.el("p", {class: "empty"}, TC.t("No finished matches yet: ratings come from them."))); return; }
      box.replaceChildren(...shown.map((g) => TC.el("section", {"aria-labelledby": `h-${g.game}`},
        TC.el("h2", {id: `h-${g.game}`}, g.title),
        TC.el("table", {class: "board-table"},
          TC.el("thead", {}, TC.el("tr", {}, ["#", TC.t("Player"), TC.t("Rating"), TC.t("Games"), TC.t("Won"), TC.t("Form")].map((h, i) => TC.el("th", {scope: "col", class: i === 4 ? "wide" : ""}, h)))),
          TC.el("tbody", {}, g.players.map((p) => TC.el("tr", {},
            TC.el("td", {}, p.place), TC.el("td", {}, link(p.name)), TC.el("td", {}, rating(p)),
            TC.el("td", {}, p.matches), TC.el("td", {class: "wide"}, p.wins), TC.el("td", {}, form(p.form)))))))));
    }).catch((err) => fail(box, TC.t("The leaderboards could not be loaded: {reason}", {reason: err.message})));
  }

  const company = (title, rows) => rows.length ? [TC.el("h3", {}, title), TC.el("ul", {class: "company"},
    rows.map((c) => TC.el("li", {}, link(c.name), " · " + TC.t("together: {matches}, won: {wins}", {matches: c.matches, wins: c.wins}))))] : [];
  const OUTCOME = {W: TC.t("Won"), D: TC.t("Shared first place"), L: TC.t("Lost")};

  function player(box, name) {
    TC.readJSON(`/api/players/${encodeURIComponent(name)}`).then((body) => {
      document.getElementById("name").textContent = body.name;
      box.replaceChildren(...body.games.map((g) => {
        // A course needs two points: after one match there is no line to draw.
        const course = g.chart.series.some((line) => line.points.length > 1);
        const chart = course ? TC.el("div", {class: "timeline"}) : null;
        if (chart) TC.timeline.draw(chart, g.chart);
        return TC.el("section", {class: "game-card player", "aria-labelledby": `h-${g.game}`},
          TC.el("h2", {id: `h-${g.game}`}, g.title),
          TC.el("p", {}, [TC.t("rating {rating}", {rating: rating(g)}), TC.t("place {place} of {of}", {place: g.place, of: g.of}),
            TC.t("played: {count}", {count: g.matches}), TC.t("won: {count}", {count: g.wins}), TC.t("form")].join(" · ") + " ", form(g.form)),
          chart,
          ...company(TC.t("Partners"), g.partners), ...company(TC.t("Opponents"), g.opponents),
          TC.el("h3", {}, TC.t("Results")),
          TC.el("ol", {class: "results"}, g.results.map((r) => TC.el("li", {},
            `${OUTCOME[r.outcome]} · ${TC.t("place {place} of {of}", {place: r.place, of: r.teams})}`,
            r.partners.length ? " " + TC.t("with {names}", {names: r.partners.join(" & ")}) : "",
            " " + TC.t("against {names}", {names: r.opponents.join(", ")}) + ` · ${TC.t("rating {rating}", {rating: TC.number(r.rating)})} · `,
            TC.el("a", {href: `/history?q=${encodeURIComponent(body.name)}`}, TC.t("match {id}", {id: r.match}))))));
      }));
      if (!body.games.length) box.replaceChildren(TC.el("p", {class: "empty"}, TC.t("No finished match yet.")));
    }).catch((err) => fail(box, err.message));
  }

  const boardsBox = document.getElementById("boards");
  if (boardsBox) boards(boardsBox);
  const playerBox = document.getElementById("player");
  if (playerBox) player(playerBox, decodeURIComponent(location.pathname.slice("/players/".length)));
})();
