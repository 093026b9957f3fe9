/* The club night's pages: what they share (which event, its state, the tables' cards). */
"use strict";

const NIGHT = {};

/** The event the page shows: ?event=, else the newest (null: none yet). */
NIGHT.eventId = function () {
  const asked = new URLSearchParams(location.search).get("event");
  if (asked) return Promise.resolve(asked);
  return fetch("/api/events", {cache: "no-store"}).then((r) => r.json())
    .then((d) => (d.events.length ? d.events[0].id : null));
};

// no-cache: asked again each time, answered 304 while the event has not changed.
NIGHT.event = (id) => fetch(`/api/events/${encodeURIComponent(id)}`, {cache: "no-cache"})
  .then((r) => { if (!r.ok) throw new Error(r.statusText); return r.json(); });

/** The hall's link to the broker as last read: {connected, broker, said (in the page's
 *  language), since}. */
NIGHT.link = {connected: true, broker: "", said: "", since: null};

/** "21:14": a Unix time as the phone's clock says it. */
NIGHT.clock = (t) => new Date(t * 1000).toLocaleTimeString(TC.lang, {hour: "2-digit", minute: "2-digit"});

/** Each table's card (GET /api/tables) by id: its live score line. The hall's link to the
 *  broker is kept (NIGHT.link) and said on every night page while it is lost. */
NIGHT.cards = () => fetch("/api/tables", {cache: "no-cache"}).then((r) => r.json())
  .then((d) => {
    const since = d.connected ? null
      : NIGHT.link.connected ? Date.now() / 1000 : NIGHT.link.since;
    NIGHT.link = {connected: d.connected, broker: d.broker,
      said: (d.broker_words || {})[TC.lang] || d.broker, since};
    const lost = document.getElementById("broker-lost");
    if (lost) {
      lost.hidden = d.connected;
      lost.textContent = d.connected ? "" : TC.t("The hall has lost the broker since {time}: scores are the last known, results wait on the tables",
        {time: NIGHT.clock(NIGHT.link.since)});
    }
    return Object.fromEntries(d.tables.map((c) => [c.id, c]));
  });

/** What the broker refuses the hall (its offers), in words for the director; "" when
 *  nothing is. A hall cut off from the broker is said by the banner on every night page. */
NIGHT.linkProblem = function () {
  const link = NIGHT.link;
  if (!link || !link.connected || link.broker === "connected") return "";
  return TC.t("Broker: {status}. The tables do not get their games until it takes them.",
    {status: link.said});
};

/** Call show(event, cards) with the newest event now and every `every` ms (and when the
 *  page comes back into view); show(null) while there is no event. */
NIGHT.follow = function (show, every = 2000) {
  let busy = false;
  const tick = () => {
    if (busy) return;
    busy = true;
    NIGHT.eventId().then((id) => {
      if (id === null) { show(null, {}); return null; }
      return Promise.all([NIGHT.event(id), NIGHT.cards().catch(() => ({}))])
        .then(([event, cards]) => show(event, cards));
    }).catch(() => {}).finally(() => { busy = false; });
  };
  tick();
  setInterval(tick, every);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) tick(); });
  return tick;
};

NIGHT.points = (p) => (Number.isInteger(p) ? String(p) : (p === 0.5 ? "½" : `${Math.floor(p) || ""}½`));

/** "Round 2 of 3" / "Before round 1" / "Finished". */
NIGHT.roundLine = (e) => (e.finished ? TC.t("Finished (rounds played: {count})", {count: e.round})
  : e.round === 0 ? TC.t("Players checking in") : TC.t("Round {round} of {rounds}", {round: e.round, rounds: e.rounds_planned}));

NIGHT.tableName = (cards, id) => (cards[id] && cards[id].name) || id;

/** A game's players in words: "Ann v Bob", "Ann & Cy v Bob & Dee", "Ann, Bob, Cy". */
NIGHT.label = (g) => g.label || g.players.join(" v ");

/** The players of each side of a team game (doubles, Canadian), side by side number. */
NIGHT.teams = (g) => [...new Set(g.sides)].sort().map((s) => g.players.filter((_, i) => g.sides[i] === s));

/** What a game is doing, in words: "Live: 1-0 (15-0)", "Waiting for a table", "Ann won",
 *  "Ann & Cy won", "Places: Ann 1, Bob 1, Cy 3". */
NIGHT.gameLine = function (g, cards) {
  if (g.bye) return TC.t("Bye: a point without playing");
  if (g.result) {
    const r = g.result.ranks;
    const fixed = g.result.reason ? " " + TC.t("(corrected: {reason})", {reason: g.result.reason}) : "";
    if (r.every((x) => x === r[0])) return TC.t("Drawn") + fixed;
    if (g.sides && g.sides.length) return TC.t("{names} won", {names: g.players.filter((_, i) => r[i] === 1).join(" & ")}) + fixed;
    if (g.players.length > 2) return TC.t("Places: {places}", {places: g.players.map((n, i) => `${n} ${r[i]}`).join(", ")}) + fixed;
    return TC.t("{names} won", {names: g.players[r[0] < r[1] ? 0 : 1]}) + fixed;
  }
  if (g.status === "waiting") return TC.t("Waiting for a table");
  if (g.status === "elsewhere") return TC.t("Played on a table without a companion");
  const card = cards[g.table];
  const summary = card && card.summary;
  const score = summary && summary.score;
  // The truth about the table: offline since when, or only last known (the hall or the
  // table not heard from since a reconnection), else live.
  if (card && card.online === false) {
    return TC.t("Table offline since {time}", {time: NIGHT.clock(card.seen)})
      + (score && g.status === "playing" ? " · " + TC.t("last known {score}", {score}) : "");
  }
  const known = card && card.fresh && NIGHT.link.connected ? TC.t("Live") : TC.t("Last known");
  if (g.status === "playing") return score ? `${known}: ${score}` : TC.t("Playing");
  // Offered while the table plays another match (a friendly): not ready yet.
  if (summary && summary.status === "active") return TC.t("Offered: the table is finishing another match");
  return TC.t("Ready: press OK on the table to start");
};

NIGHT.standingsRows = function (tbody, standings, limit) {
  tbody.replaceChildren(...standings.slice(0, limit).map((s) => TC.el("tr", {},
    TC.el("td", {}, s.place), TC.el("td", {class: "who"}, s.name),
    TC.el("td", {}, NIGHT.points(s.points)), TC.el("td", {}, NIGHT.points(s.buchholz)),
    TC.el("td", {}, s.played))));
};
