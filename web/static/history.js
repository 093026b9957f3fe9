"use strict";
/* The history: one row per stored match (game, players, result, local start time,
   duration); a finished match opens to its final board (the stats), its timeline and
   its match file. Abandoned matches where nothing was played are folded away. */
(function () {
  const list = document.getElementById("history");
  const idle = document.getElementById("abandoned");
  const idleList = idle.querySelector("ol");
  // Each game's title, and whether a list `winner` is a win shared by equal totals
  // (each playing for themselves) rather than a team's.
  const games = JSON.parse(document.getElementById("games").textContent);
  const won = (m, i) => (Array.isArray(m.winner) ? m.winner.includes(i) : m.winner === i);
  const shared = (m) => games[m.game]?.shared_wins && Array.isArray(m.winner) && m.winner.length > 1;
  const names = (m) => m.players.map((p, i) => (won(m, i) ? `${p} (${shared(m) ? "shared win" : "won"})` : p)).join(" v ");
  const clock = new Intl.DateTimeFormat(undefined, {dateStyle: "medium", timeStyle: "short"});
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  document.getElementById("zone").textContent = zone ? `Times are this phone's local time (${zone}).`
    : "Times are this phone's local time.";

  /** "42 min", "1 h 05 min", "under a minute": from the start to the match's last change. */
  const duration = (m) => {
    const minutes = Math.floor((Date.parse(m.updated_at) - Date.parse(m.started_at)) / 60000);
    if (!(minutes >= 1)) return "under a minute";
    return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
  };
  const result = (m) => {
    const winners = m.players.filter((_, i) => won(m, i));
    const head = m.status === "active" ? "In play" : m.status === "abandoned" ? "Abandoned"
      : shared(m) ? `Shared win: ${winners.join(" & ")}` : `${winners.join(" & ")} won`;
    return m.summary ? `${head} · ${m.summary}` : head;
  };
  const file = (m) => TC.el("a", {class: "file", href: `/api/matches/${m.id}/export`,
    download: `match-${m.id}.jsonl`}, "Match file");

  /** What a finished match opens to: its final board (with the game's stats), its
   *  timeline and its match file; fetched the first time it is opened. */
  const details = (m) => {
    const board = TC.el("div", {class: "board", "aria-live": "polite"}, TC.el("p", {class: "empty"}, "Loading…"));
    const chart = TC.el("div", {class: "timeline"});
    const box = TC.el("details", {class: "more"},
      TC.el("summary", {}, "Stats, timeline and match file"), board, chart, file(m));
    box.addEventListener("toggle", () => {
      if (!box.open || box.dataset.loaded) return;
      box.dataset.loaded = "1";
      fetch(`/api/matches/${m.id}`, {cache: "no-store"})
        .then((r) => r.json().then((d) => { if (!r.ok) throw new Error(d.error || r.statusText); return d; }))
        .then((match) => TC.renderBoard(board, {match}))
        .catch((err) => { delete box.dataset.loaded; board.replaceChildren(TC.el("p", {class: "error"}, err.message)); });
      TC.showTimeline(chart, m.id);
    });
    return box;
  };

  const row = (m) => TC.el("li", {"data-id": m.id, "data-status": m.status},
    TC.el("p", {class: "line"},
      TC.el("span", {class: "game"}, games[m.game]?.title || m.game),
      TC.el("span", {class: "result"}, result(m))),
    TC.el("p", {class: "who"}, names(m)),
    TC.el("p", {class: "when"},
      TC.el("time", {datetime: m.started_at}, clock.format(new Date(m.started_at))),
      TC.el("span", {class: "duration"}, ` · ${duration(m)}`)),
    m.status === "finished" ? details(m) : file(m));

  // Rows kept while their match is unchanged, so an open disclosure stays open.
  const rows = new Map();
  const keep = (m) => {
    const key = JSON.stringify(m);
    const known = rows.get(m.id);
    if (known && known.key === key) return known.node;
    const node = row(m);
    rows.set(m.id, {key, node});
    return node;
  };
  const load = () => fetch("/api/history", {cache: "no-store"}).then((r) => r.json()).then((all) => {
    const folded = (m) => m.status === "abandoned" && m.plays === 0;
    const shown = all.filter((m) => !folded(m));
    const hidden = all.filter(folded);
    list.replaceChildren(...shown.map(keep));
    if (!all.length) list.append(TC.el("li", {class: "empty"}, "No matches yet."));
    idle.hidden = !hidden.length;
    idle.querySelector("summary").textContent = `${hidden.length} abandoned before anything was played`;
    idleList.replaceChildren(...hidden.map(keep));
  });
  load();
  TC.follow(() => load());
})();
