/* The hall board: every table's card, live. The page starts from the list it was served
   with (#state, the /api/tables body); the stream (/api/hall/events) sends the whole list
   first ("tables") and then one card per change ("table"), each numbered one more than
   the last: a gap means this page missed one, and it starts the stream again. */
"use strict";

const hall = {cards: new Map(), connected: true, broker: "", seq: null, source: null};
const grid = document.getElementById("tables");
const empty = document.getElementById("empty");
const offline = document.getElementById("offline");
const brokerBanner = document.getElementById("broker");
const count = document.getElementById("count");
const STATUS = {active: "Live", finished: "Finished", idle: "No match"};

function seenText(seen) {
  if (!seen) return "No news yet";
  const at = new Date(seen * 1000);
  return `Updated ${at.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit", second: "2-digit"})}`;
}

function scoreTable(summary) {
  const el = TC.el;
  return el("table", {class: "hscore"},
    el("thead", {}, el("tr", {}, el("td", {}),
      summary.columns.map((c) => el("th", {scope: "col"}, c)))),
    el("tbody", {}, summary.sides.map((side, i) => el("tr", {class: [side.turn && "turn", side.winner && "winner"].filter(Boolean).join(" ") || null},
      // Seat colours as on the spectator boards: two sides, or up to four players.
      el("th", {scope: "row", class: `name player-${i % 4}`},
        side.turn ? el("span", {class: "mark", "aria-hidden": "true"}, "▶ ") : null,
        side.name,
        side.turn ? el("span", {class: "sr-only"}, " (to play)") : null,
        side.winner ? el("span", {class: "chip won"}, "Won") : null),
      side.score.map((cell, j) => el("td", {class: j === side.score.length - 1 ? "last" : null}, cell))))));
}

/** One table's card: its name (a link to its own page when it has one), game, status,
 *  the scores by side, whose turn, the winner, offline or stale, the last news. */
function card(t) {
  const el = TC.el;
  const s = t.summary;
  const off = t.online === false;
  // Last known: the hall lost the broker, or has it back but not yet this table.
  const stale = !hall.connected || t.fresh === false;
  const status = off ? "Offline" : s ? (STATUS[s.status] || s.status) : "Waiting";
  const name = t.url ? el("a", {href: t.url, class: "open"}, t.name) : t.name;
  const classes = ["tcard", off ? "off" : "", stale ? "stale" : "", s ? `st-${s.status}` : ""];
  return el("article", {class: classes.filter(Boolean).join(" "), "data-id": t.id, "aria-labelledby": `t-${t.id}`},
    el("div", {class: "top"},
      el("h2", {id: `t-${t.id}`}, name),
      el("span", {class: `badge ${off ? "off" : s ? s.status : ""}`}, status)),
    el("p", {class: "game"}, !s ? "Waiting for the table's first score" : s.game ? s.title : "No match on the table"),
    s && s.sides.length ? scoreTable(s) : el("p", {class: "noscore"}),
    el("p", {class: "foot"},
      s && s.turn && s.status === "active" ? el("span", {class: "turn"}, `▶ ${s.turn} to play`) : null,
      s && s.winner ? el("span", {class: "win"}, `${s.winner} won`) : null,
      el("span", {class: "seen"}, `${stale ? "Last known · " : ""}${seenText(t.seen)}`)));
}

const order = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function summaryLine() {
  const all = [...hall.cards.values()];
  const live = all.filter((t) => t.online !== false && t.summary && t.summary.status === "active").length;
  count.textContent = all.length ? `${all.length} table${all.length === 1 ? "" : "s"} · ${live} live` : "";
  empty.hidden = all.length > 0;
  brokerBanner.hidden = hall.connected;
  brokerBanner.textContent = hall.connected ? "" : `Not connected to the broker (${hall.broker}): showing the last scores known.`;
}

/** The whole list: every card drawn again, in order. */
function showAll(body) {
  hall.connected = body.connected;
  hall.broker = body.broker;
  hall.cards = new Map(body.tables.map((t) => [t.id, t]));
  grid.replaceChildren(...body.tables.map(card));
  summaryLine();
}

/** One card changed: it is replaced where it stands (a new one goes where its name sorts). */
function showOne(t) {
  const old = hall.cards.get(t.id);
  hall.cards.set(t.id, t);
  const node = card(t);
  const here = grid.querySelector(`[data-id="${CSS.escape(t.id)}"]`);
  if (here && old && old.name === t.name) {
    here.replaceWith(node);
  } else {
    if (here) here.remove();
    const after = [...grid.children].find((n) => order(hall.cards.get(n.dataset.id), t) > 0);
    grid.insertBefore(node, after || null);
  }
  summaryLine();
}

function open() {
  if (hall.source) hall.source.close();
  const source = hall.source = new EventSource("/api/hall/events");
  const numbered = (e) => {
    const n = Number(e.lastEventId);
    const missed = hall.seq !== null && n !== hall.seq + 1;
    hall.seq = n;
    return missed;
  };
  source.addEventListener("tables", (e) => {
    offline.hidden = true;
    hall.seq = Number(e.lastEventId);
    showAll(JSON.parse(e.data));
  });
  source.addEventListener("table", (e) => {
    if (numbered(e)) { hall.seq = null; open(); return; }  // missed one: the whole list again
    showOne(JSON.parse(e.data));
  });
  source.addEventListener("open", () => { offline.hidden = true; });
  source.addEventListener("error", () => {
    offline.hidden = false;
    hall.seq = null;  // the reconnect starts with the whole list
    if (source.readyState === EventSource.CLOSED) setTimeout(() => { if (hall.source === source) open(); }, 3000);
  });
}

showAll(TC.initial);
open();
document.addEventListener("visibilitychange", () => {
  if (!document.hidden && hall.source && hall.source.readyState === EventSource.CLOSED) open();
});
