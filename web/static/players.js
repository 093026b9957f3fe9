"use strict";
/* The leaderboards (/players: GET /api/players) and one player's page (/players/<name>:
   GET /api/players/<name>, the rating's course drawn with the timeline chart code). */
(function () {
  const link = (name) => TC.el("a", {href: `/players/${encodeURIComponent(name)}`}, name);
  const form = (f) => TC.el("span", {class: "form", title: "latest results, oldest first: W won, D shared first place, L lost"}, f.join("") || "–");
  const rating = (r) => `${r.rating.toFixed(1)}${r.provisional ? "*" : ""}`;
  const fail = (box, text) => box.replaceChildren(TC.el("p", {class: "error"}, text));
  const get = (url) => fetch(url).then((r) => r.json().then((body) => {
    if (!r.ok) throw new Error(body.error || `${r.status}`);
    return body;
  }));

  function boards(box) {
    get("/api/players").then((body) => {
      const shown = body.games.filter((g) => g.players.length);
      if (!shown.length) { box.replaceChildren(TC.el("p", {class: "empty"}, "No finished matches yet: ratings come from them.")); return; }
      box.replaceChildren(...shown.map((g) => TC.el("section", {"aria-labelledby": `h-${g.game}`},
        TC.el("h2", {id: `h-${g.game}`}, g.title),
        TC.el("table", {class: "board-table"},
          TC.el("thead", {}, TC.el("tr", {}, ["#", "Player", "Rating", "Games", "Won", "Form"].map((h) => TC.el("th", {scope: "col"}, h)))),
          TC.el("tbody", {}, g.players.map((p) => TC.el("tr", {},
            TC.el("td", {}, p.place), TC.el("td", {}, link(p.name)), TC.el("td", {}, rating(p)),
            TC.el("td", {}, p.matches), TC.el("td", {}, p.wins), TC.el("td", {}, form(p.form)))))))));
    }).catch((err) => fail(box, `The leaderboards could not be loaded: ${err.message}`));
  }

  const company = (title, rows) => rows.length ? [TC.el("h3", {}, title), TC.el("ul", {class: "company"},
    rows.map((c) => TC.el("li", {}, link(c.name), ` · ${c.matches} together, ${c.wins} won`)))] : [];
  const OUTCOME = {W: "Won", D: "Shared first place", L: "Lost"};

  function player(box, name) {
    get(`/api/players/${encodeURIComponent(name)}`).then((body) => {
      document.getElementById("name").textContent = body.name;
      box.replaceChildren(...body.games.map((g) => {
        // A course needs two points: after one match there is no line to draw.
        const course = g.chart.series.some((line) => line.points.length > 1);
        const chart = course ? TC.el("div", {class: "timeline"}) : null;
        if (chart) TC.timeline.draw(chart, g.chart);
        return TC.el("section", {class: "game-card player", "aria-labelledby": `h-${g.game}`},
          TC.el("h2", {id: `h-${g.game}`}, g.title),
          TC.el("p", {}, `Rating ${rating(g)} · place ${g.place} of ${g.of} · ${g.matches} played, ${g.wins} won · form `, form(g.form)),
          chart,
          ...company("Partners", g.partners), ...company("Opponents", g.opponents),
          TC.el("h3", {}, "Results"),
          TC.el("ol", {class: "results"}, g.results.map((r) => TC.el("li", {},
            `${OUTCOME[r.outcome]} · place ${r.place} of ${r.teams}`,
            r.partners.length ? ` with ${r.partners.join(" & ")}` : "",
            ` against ${r.opponents.join(", ")} · rating ${r.rating.toFixed(1)} · `,
            TC.el("a", {href: `/history?q=${encodeURIComponent(body.name)}`}, `match ${r.match}`)))));
      }));
      if (!body.games.length) box.replaceChildren(TC.el("p", {class: "empty"}, "No finished match yet."));
    }).catch((err) => fail(box, err.message));
  }

  const boardsBox = document.getElementById("boards");
  if (boardsBox) boards(boardsBox);
  const playerBox = document.getElementById("player");
  if (playerBox) player(playerBox, decodeURIComponent(location.pathname.slice("/players/".length)));
})();
