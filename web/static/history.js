"use strict";
(function () {
  const list = document.getElementById("history");
  const titles = JSON.parse(document.getElementById("titles").textContent);
  // `winner` is a player's index, or a list of them: a team's win, or in the games
  // where each plays for themselves (TIES), a win shared by equal totals.
  const TIES = ["alakazoo"];
  const won = (m, i) => (Array.isArray(m.winner) ? m.winner.includes(i) : m.winner === i);
  const shared = (m) => TIES.includes(m.game) && Array.isArray(m.winner) && m.winner.length > 1;
  const names = (m) => m.players.map((p, i) => (won(m, i) ? `${p} (${shared(m) ? "shared win" : "won"})` : p)).join(" v ");
  const load = () => fetch("/api/history", {cache: "no-store"}).then((r) => r.json()).then((rows) => {
    list.replaceChildren(...rows.map((m) => TC.el("li", {},
      TC.el("span", {class: "when"}, m.started_at.replace("T", " ").slice(0, 16)),
      TC.el("span", {class: "game"}, titles[m.game] || m.game),
      TC.el("span", {class: "who"}, names(m)),
      TC.el("span", {class: "result"}, m.summary, m.status === "finished" ? "" : ` (${m.status})`),
      TC.el("a", {href: `/api/matches/${m.id}/export`, download: `match-${m.id}.jsonl`}, "file"))));
    if (!rows.length) list.append(TC.el("li", {class: "empty"}, "No matches yet."));
  });
  load();
  TC.follow(() => load());
})();
