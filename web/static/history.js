"use strict";
(function () {
  const list = document.getElementById("history");
  // Each game's title, and whether a list `winner` is a win shared by equal totals
  // (each playing for themselves) rather than a team's.
  const games = JSON.parse(document.getElementById("games").textContent);
  const won = (m, i) => (Array.isArray(m.winner) ? m.winner.includes(i) : m.winner === i);
  const shared = (m) => games[m.game]?.shared_wins && Array.isArray(m.winner) && m.winner.length > 1;
  const names = (m) => m.players.map((p, i) => (won(m, i) ? `${p} (${shared(m) ? "shared win" : "won"})` : p)).join(" v ");
  const load = () => fetch("/api/history", {cache: "no-store"}).then((r) => r.json()).then((rows) => {
    list.replaceChildren(...rows.map((m) => TC.el("li", {},
      TC.el("span", {class: "when"}, m.started_at.replace("T", " ").slice(0, 16)),
      TC.el("span", {class: "game"}, games[m.game]?.title || m.game),
      TC.el("span", {class: "who"}, names(m)),
      TC.el("span", {class: "result"}, m.summary, m.status === "finished" ? "" : ` (${m.status})`),
      TC.el("a", {href: `/api/matches/${m.id}/export`, download: `match-${m.id}.jsonl`}, "file"),
      // A finished match opens to its timeline (helper B: TC.showTimeline), drawn when opened.
      m.status === "finished" ? TC.el("details", {class: "tl-detail", ontoggle: (e) => {
        if (e.target.open) TC.showTimeline(e.target.querySelector(".timeline"), m.id);
      }}, TC.el("summary", {}, "Timeline"), TC.el("div", {class: "timeline"})) : null)));
    if (!rows.length) list.append(TC.el("li", {class: "empty"}, "No matches yet."));
  });
  load();
  TC.follow(() => load());
})();
