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
  // The players by side ("Ann & Cy v Bob & Dee"), the winners in bold: the result line
  // says who won in words ("Ann won"), once.
  const names = (m) => TC.sides(m, (i) => (won(m, i) ? TC.el("strong", {class: "won"}, m.players[i]) : m.players[i]))
    .flatMap((side, s) => [s ? " v " : null, ...side.flatMap((p, k) => [k ? " & " : null, p])]);
  const clock = new Intl.DateTimeFormat(TC.lang, {dateStyle: "medium", timeStyle: "short"});
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  document.getElementById("zone").textContent = zone ? TC.t("Times are this phone's local time ({zone}).", {zone})
    : TC.t("Times are this phone's local time.");

  /** "42 min", "1 h 05 min", "under a minute": from the start to the match's last change.
      The times are the table's wall clock: a Pi with no clock battery that sets its time
      from the network during a match gives a span of years or below zero, which is told
      as such rather than shown. */
  const duration = (m) => {
    const minutes = Math.floor((Date.parse(m.updated_at) - Date.parse(m.started_at)) / 60000);
    if (!Number.isFinite(minutes) || minutes < 0 || minutes > 24 * 60) {
      return TC.t("length unknown (the table's clock was set meanwhile)");
    }
    if (minutes < 1) return TC.t("under a minute");
    return minutes < 60 ? TC.t("{minutes} min", {minutes})
      : TC.t("{hours} h {minutes} min", {hours: Math.floor(minutes / 60), minutes: String(minutes % 60).padStart(2, "0")});
  };
  const result = (m) => {
    const winners = m.players.filter((_, i) => won(m, i));
    const head = m.status === "active" ? TC.t("In play") : m.status === "abandoned" ? TC.t("Abandoned")
      : shared(m) ? TC.t("Shared win: {names}", {names: winners.join(" & ")}) : TC.t("{names} won", {names: winners.join(" & ")});
    // The outcome in bold, the game's summary (a free-for-all's totals and stats run
    // long) in the body's weight after it.
    return [TC.el("span", {class: "outcome"}, head), m.summary ? ` · ${m.summary}` : null,
      ruling(m)];
  };
  // The hall's director's word on a match played for a club night: the result shown is
  // theirs (corrected, or kept over the table's change), the table's own play named.
  const ruling = (m) => {
    if (!m.ruling) return null;
    const was = m.players.filter((_, i) => (Array.isArray(m.ruling.was) ? m.ruling.was.includes(i) : m.ruling.was === i));
    const said = m.ruling.kind === "corrected" ? TC.t("Corrected by the hall's director") : TC.t("Kept by the hall's director");
    return TC.el("span", {class: "ruling"}, ` · ${said}${m.ruling.reason ? `: ${m.ruling.reason}` : ""}`
      + (was.length ? " " + TC.t("(played: {names} won)", {names: was.join(" & ")}) : ""));
  };
  const file = (m) => TC.el("a", {class: "file", href: `/api/matches/${m.id}/export`,
    download: `match-${m.id}.jsonl`}, TC.t("Match file"));

  /** What a finished match opens to: its final board (with the game's stats), its
   *  timeline and its match file; fetched the first time it is opened. */
  const details = (m) => {
    const board = TC.el("div", {class: "board", "aria-live": "polite"}, TC.el("p", {class: "empty"}, TC.t("Loading…")));
    const chart = TC.el("div", {class: "timeline"});
    const box = TC.el("details", {class: "more"},
      TC.el("summary", {}, TC.t("Stats, timeline and match file")), board, chart, file(m));
    box.addEventListener("toggle", () => {
      if (!box.open || box.dataset.loaded) return;
      box.dataset.loaded = "1";
      TC.readJSON(`/api/matches/${m.id}`, {cache: "no-store"})
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

  /* A page at a time: the server pages the history (newest first) and searches it; the
     page holds the matches it was sent, asks for the next page only on "More", and on a
     table change only for what can have changed (docs/api.md "GET /api/history"). */
  const PAGE = 50;
  const more = document.getElementById("more");
  const search = document.getElementById("search");
  const loaded = new Map();  // id -> match, for the search shown
  let next = null;           // the next page's address (its Link header), null: no more
  let query = "";
  let started = false;       // the first page has come
  let current = null;        // the table's match when the page last heard of it

  const address = (extra) => {
    const params = new URLSearchParams({limit: PAGE, ...extra});
    if (query) params.set("q", query);
    return `/api/history?${params}`;
  };
  /** A page and the address of the next; a busy server is asked again (TC.read).
   *  "no-cache": an unchanged page comes from the browser's copy (304). */
  const get = (path) => TC.read(path, {cache: "no-cache"}).then((r) => r.json().then((body) => {
    if (!r.ok) throw new Error(body.error || r.statusText);
    const link = /<([^>]+)>;\s*rel="next"/.exec(r.headers.get("Link") || "");
    return {matches: body, next: link ? link[1] : null};
  }));

  const show = () => {
    const all = [...loaded.values()].sort((a, b) => b.id - a.id);
    const folded = (m) => m.status === "abandoned" && m.plays === 0;
    const shown = all.filter((m) => !folded(m));
    const hidden = all.filter(folded);
    list.replaceChildren(...shown.map(keep));
    if (!all.length) list.append(TC.el("li", {class: "empty"}, query ? TC.t("No match found.") : TC.t("No matches yet.")));
    idle.hidden = !hidden.length;
    idle.querySelector("summary").textContent = TC.t("Abandoned before anything was played: {count}", {count: hidden.length});
    idleList.replaceChildren(...hidden.map(keep));
    more.hidden = !next;
  };
  const take = (page) => { page.matches.forEach((m) => loaded.set(m.id, m)); };

  // One load at a time, in the order asked: a search, "More" and a table change never cross.
  let queue = Promise.resolve();
  const then = (work) => {
    queue = queue.then(work).catch((err) => {
      list.replaceChildren(TC.el("li", {class: "error"}, err.message));
    });
    return queue;
  };
  const first = () => then(() => get(address({})).then((page) => {
    loaded.clear();
    take(page);
    next = page.next;
    started = true;
    show();
  }));
  more.addEventListener("click", () => {
    if (!next || more.disabled) return;
    more.disabled = true;
    then(() => get(next).then((page) => { take(page); next = page.next; show(); }))
      .finally(() => { more.disabled = false; });
  });
  search.addEventListener("submit", (event) => {
    event.preventDefault();
    query = search.elements.q.value.trim();
    first();
  });
  /** A table change: only the matches newer than the oldest one that can have changed (one
   *  in play, the table's match then and now), every page of them; the rest stay. */
  const changed = (state) => then(() => {
    if (!started) return undefined;
    const ids = [...loaded.keys()];
    const changing = [...loaded.values()].filter((m) => m.status === "active").map((m) => m.id);
    for (const id of [current, state.match && state.match.id]) if (id != null) changing.push(id);
    current = state.match ? state.match.id : null;
    const after = Math.min(ids.length ? Math.max(...ids) : 0, ...changing.map((id) => id - 1));
    const fetchAll = (path) => get(path).then((page) => {
      take(page);
      return page.next ? fetchAll(page.next) : undefined;
    });
    return fetchAll(address({after: Math.max(0, after)})).then(show);
  });
  current = TC.initial.match ? TC.initial.match.id : null;
  first();
  TC.follow((state) => { if (started) changed(state); });
})();
