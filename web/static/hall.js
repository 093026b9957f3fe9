/* The hall board: every table's card, live. The page starts from the list it was served
   with (#state, the /api/tables body); the stream (/api/hall/events) sends the whole list
   first ("tables") and then one card per change ("table") or a card gone ("gone"), each
   numbered one more than the last: a gap means this page missed one, and it starts the
   stream again. */
"use strict";

/* broker: the hall's link to the broker as the API says it (English), said: in this page's
   language (the list's broker_words). */
const hall = {cards: new Map(), connected: true, broker: "", said: "", seq: null, source: null};
const grid = document.getElementById("tables");
const empty = document.getElementById("empty");
const offline = document.getElementById("offline");
const brokerBanner = document.getElementById("broker");
const count = document.getElementById("count");
const STATUS = {active: TC.t("Live"), finished: TC.t("Finished"), idle: TC.t("No match")};

function seenText(seen) {
  if (!seen) return TC.t("No news yet");
  const at = new Date(seen * 1000);
  return TC.t("Updated {time}", {time: at.toLocaleTimeString(TC.lang, {hour: "2-digit", minute: "2-digit", second: "2-digit"})});
}

/** One table's card: its name (a link to its own page when it has one), game, status,
 *  the scores by side, what the broker refuses it, whose turn, the winner, offline or
 *  stale, the last news. */
function card(t) {
  const el = TC.el;
  const s = t.summary;
  const off = t.online === false;
  // Last known: the hall lost the broker, or has it back but not yet this table.
  const stale = !hall.connected || t.fresh === false;
  const status = off ? TC.t("Offline") : s ? (STATUS[s.status] || s.status) : TC.t("Waiting");
  const name = t.url ? el("a", {href: t.url, class: "open"}, t.name) : t.name;
  const classes = ["tcard", off ? "off" : "", stale ? "stale" : "", s ? `st-${s.status}` : ""];
  return el("article", {class: classes.filter(Boolean).join(" "), "data-id": t.id, "data-name": t.name, "aria-labelledby": `t-${t.id}`},
    el("div", {class: "top"},
      el("h2", {id: `t-${t.id}`}, name),
      el("span", {class: `badge ${off ? "off" : s ? s.status : ""}`}, status)),
    el("p", {class: "game"}, !s ? TC.t("Waiting for the table's first score") : s.game ? s.title : TC.t("No match on the table")),
    s && s.sides.length ? TC.cardTable(s, "hscore") : el("p", {class: "noscore"}),
    // What the broker refuses this table (its ACL lacks a line): said for whoever keeps it.
    s && s.refused && s.refused.length ? el("ul", {class: "refused", "aria-label": TC.t("Broker refusals")},
      s.refused.map((r) => el("li", {}, TC.t("The broker refuses {what} ({reason}): its ACL needs", {what: r.what, reason: r.reason}) + " ",
        el("code", {}, r.acl), " " + TC.t("for this table's user.")))) : null,
    el("p", {class: "foot"},
      s && s.turn && s.status === "active" ? el("span", {class: "turn"}, "▶ " + TC.t("{names} to play", {names: s.turn})) : null,
      s && s.winner ? el("span", {class: "win"}, TC.t("{names} won", {names: s.winner})) : null,
      el("span", {class: "seen"}, `${stale ? TC.t("Last known") + " · " : ""}${seenText(t.seen)}`)));
}

/* Cards by their tables' names as the page's language sorts them (Ł after L in Polish). */
const collator = new Intl.Collator(TC.lang);
const order = (a, b) => collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function summaryLine() {
  const all = [...hall.cards.values()];
  const live = all.filter((t) => t.online !== false && t.summary && t.summary.status === "active").length;
  count.textContent = all.length ? TC.t("Tables: {count} · live: {live}", {count: all.length, live}) : "";
  empty.hidden = all.length > 0;
  // Connected, the status may still say what the broker refuses the hall (its offers).
  const refused = hall.connected && hall.broker !== "connected";
  brokerBanner.hidden = hall.connected && !refused;
  brokerBanner.textContent = !hall.connected
    ? TC.t("Not connected to the broker ({status}): showing the last scores known.", {status: hall.said})
    : refused ? TC.t("Broker: {status}", {status: hall.said}) : "";
}

/* Drawing is coalesced: a message only changes hall.cards and notes what to draw again;
   the page is drawn at most once per animation frame and once per DRAW_EVERY ms. A flood
   of messages (hundreds of tables, or a client making tables up) then costs a few
   drawings a second, not one per message: the TV's main thread stays free. */
const DRAW_EVERY = 200;
const draw = {all: false, ids: new Set(), pending: false, last: 0};

/** The whole list: every card drawn again, in order (at the next drawing). */
function showAll(body) {
  hall.connected = body.connected;
  hall.broker = body.broker;
  hall.said = (body.broker_words || {})[TC.lang] || body.broker;
  hall.cards = new Map(body.tables.map((t) => [t.id, t]));
  draw.all = true;
  draw.ids.clear();
  later();
}

/** One card changed, or (null) is gone: drawn again at the next drawing. */
function showOne(id, t) {
  if (t) hall.cards.set(id, t); else hall.cards.delete(id);
  draw.ids.add(id);
  later();
}

function later() {
  if (draw.pending) return;
  draw.pending = true;
  const wait = Math.max(0, draw.last + DRAW_EVERY - performance.now());
  setTimeout(() => requestAnimationFrame(drawNow), wait);
}

/** Everything noted since the last drawing: a changed card is replaced where it stands,
 *  a new one goes where its name sorts, a gone one is taken away. */
function drawNow() {
  draw.pending = false;
  draw.last = performance.now();
  if (draw.all || draw.ids.size > 50) {
    // A card drawn before from the same data (the whole list again after a reconnection)
    // keeps its node: nothing moves or flickers, and only what changed is drawn.
    const before = new Map([...grid.children].map((n) => [n.dataset.id, n]));
    const nodes = [...hall.cards.values()].sort(order).map((t) => {
      const key = JSON.stringify([t, hall.connected]);
      const node = before.get(t.id);
      if (node && node.drawnFrom === key) return node;
      const fresh = card(t);
      fresh.drawnFrom = key;
      return fresh;
    });
    if (nodes.length !== grid.children.length || nodes.some((n, i) => grid.children[i] !== n)) {
      grid.replaceChildren(...nodes);
    }
  } else {
    for (const id of draw.ids) {
      const t = hall.cards.get(id);
      const here = grid.querySelector(`[data-id="${CSS.escape(id)}"]`);
      const node = t && card(t);
      if (node) node.drawnFrom = JSON.stringify([t, hall.connected]);
      if (here && t && here.dataset.name === t.name) {
        here.replaceWith(node);
        continue;
      }
      if (here) here.remove();
      if (!t) continue;
      // Among the cards as drawn (by the name each was drawn with): one gone or renamed in
      // this same batch may still stand here, its new state not yet in the grid.
      const after = [...grid.children].find((n) => order({name: n.dataset.name, id: n.dataset.id}, t) > 0);
      grid.insertBefore(node, after || null);
    }
  }
  draw.all = false;
  draw.ids.clear();
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
    const t = JSON.parse(e.data);
    showOne(t.id, t);
  });
  source.addEventListener("gone", (e) => {
    if (numbered(e)) { hall.seq = null; open(); return; }
    showOne(JSON.parse(e.data).id, null);
  });
  source.addEventListener("open", () => { offline.hidden = true; });
  source.addEventListener("error", () => {
    offline.hidden = false;
    hall.seq = null;  // the reconnect starts with the whole list
    if (source.readyState === EventSource.CLOSED) setTimeout(() => { if (hall.source === source) open(); }, 3000);
  });
}

showAll(TC.initial);
drawNow();  // the first drawing at once, from the list the page came with
open();
document.addEventListener("visibilitychange", () => {
  if (!document.hidden && hall.source && hall.source.readyState === EventSource.CLOSED) open();
});

/* The club leaderboard (GET /api/players): every table's finished matches, each counted
   once, rated per game; kept by the hall, so it shows while the tables are offline. Asked
   again every half minute (an unchanged one is a 304: the browser sends its ETag). */
(function () {
  const club = document.getElementById("club");
  const boards = document.getElementById("club-boards");
  const SHOWN = 10;
  const pull = () => fetch("/api/players").then((r) => (r.ok ? r.json() : null)).then((body) => {
    if (!body) return;
    const games = body.games.filter((g) => g.players.length);
    club.hidden = !games.length;
    boards.replaceChildren(...games.map((g) => TC.el("div", {class: "club-game"},
      TC.el("h3", {}, g.title),
      TC.el("ol", {class: "club-list"}, g.players.slice(0, SHOWN).map((p) => TC.el("li", {},
        TC.el("span", {class: "who"}, p.name),
        TC.el("span", {class: "fig"}, `${TC.number(p.rating)}${p.provisional ? "*" : ""} · ${TC.t("played: {count}", {count: p.matches})}`)))))));
  }).catch(() => null);
  pull();
  setInterval(pull, 30000);
})();
