/* Shared by every page: the state stream, the boards of each game, the host session. */
"use strict";

const TC = {};

/* A run of right-to-left letters (a Hebrew or Arabic name) in a line of text, words
 * and spaces between them included: isolated for display (U+2068 FIRST STRONG ISOLATE
 * ... U+2069 POP DIRECTIONAL ISOLATE), so the numbers and names around it keep their
 * order. Without it "דוד 3-2 Ann" shows as "2-3 דוד Ann": the score takes the name's
 * direction. */
const RTL_RUN = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC]+(?:[ '.\-]+[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC]+)*/g;
TC.isolate = (text) => String(text).replace(RTL_RUN, "\u2068$&\u2069");

/** Make an element: el("p", {class: "x"}, "text", child). Text is never parsed as HTML;
 * its right-to-left runs (a Hebrew or Arabic name) are isolated (TC.isolate), so such a
 * name never turns a score line round. TC.svg makes an SVG element the same way. */
TC.el = (tag, attrs, ...children) => TC.fill(document.createElement(tag), attrs, children);
TC.svg = (tag, attrs, ...children) =>
  TC.fill(document.createElementNS("http://www.w3.org/2000/svg", tag), attrs, children);
TC.fill = function (node, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(TC.isolate(c)));
  }
  return node;
};

/** TC.t("{name} won", {name}): the English words in the page's language (#words,
 * web/i18n.py), placeholders filled; a message not translated stays English. */
TC.words = JSON.parse(document.getElementById("words")?.textContent || "{}");
TC.lang = document.documentElement.lang || "en";
TC.t = (message, params) => (TC.words[message] || message).replace(
  /\{(\w+)\}/g, (whole, key) => (params && key in params ? String(params[key]) : whole));

/** A rating (one decimal) the page's language's way: 1,5 in German, 1.5 in English. */
TC.number = (x) => x.toLocaleString(TC.lang, {minimumFractionDigits: 1, maximumFractionDigits: 1});

/* The page's language picker: kept in a cookie, the page loaded again in it. */
document.getElementById("language")?.addEventListener("change", (event) => {
  document.cookie = `lang=${encodeURIComponent(event.target.value)}; path=/; max-age=31536000; samesite=lax`;
  location.reload();
});

/** A read of the API; a busy server's 429 or 503 is asked again after its Retry-After
 *  (10 s at most), five times in all. Resolves to the last answer; rejects as fetch. */
TC.read = (path, init = {}, tries = 5) => fetch(path, init).then((r) => (
  (r.status !== 429 && r.status !== 503) || tries < 2 ? r
    : new Promise((go) => setTimeout(go, Math.min(10, Number(r.headers.get("Retry-After")) || 1) * 1e3))
      .then(() => TC.read(path, init, tries - 1))));
/** Its JSON; an answer not 2xx rejects with the server's `error` and its `status`. */
TC.readJSON = (path, init) => TC.read(path, init).then((r) => (r.ok ? r.json() : r.json().catch(() => ({}))
  .then((b) => { throw Object.assign(new Error(b.error || r.statusText), {status: r.status}); })));

/** The state the page was served with, so it shows at once. */
TC.initial = JSON.parse(document.getElementById("state").textContent);

/**
 * Follow the table: calls onState(state) now and on every new state, and onOnline(true |
 * false), when given, each time the stream is heard to be connected or not.
 * A state is new when its version or its epoch (the database's identity)
 * differs from the one shown: a new database counts its versions from 0
 * again. The stream is opened naming the epoch shown, so a reconnect at the
 * same version number of another database still gets the state.
 */
TC.follow = function (onState, onOnline) {
  const offline = document.getElementById("offline");
  let version = -1;
  let epoch = null;
  const show = (state) => {
    // An answer to a change (or its retry, answered with the first outcome) can
    // arrive after the stream already showed a later version: never go back.
    if (state.epoch === epoch && state.version <= version) return;
    version = state.version;
    epoch = state.epoch;
    onState(state);
  };
  const setOffline = (off) => { offline.hidden = !off; if (onOnline) onOnline(!off); };
  show(TC.initial);  // first: the stream is opened naming the epoch shown
  const stream = TC.stream({state: (s) => { setOffline(false); show(s); }, online: (on) => setOffline(!on)},
    () => epoch);
  const resync = () => {
    fetch("/api/state", {cache: "no-store"})
      .then((r) => r.json()).then((s) => { setOffline(false); show(s); })
      .catch(() => setOffline(true));
    stream.wake();
  };
  // A phone that slept or lost the network catches up as soon as it is back.
  document.addEventListener("visibilitychange", () => { if (!document.hidden) resync(); });
  window.addEventListener("online", resync);
  window.addEventListener("offline", () => setOffline(true));
  return {resync, show};
};

/* D: one stream per browser.
 * A browser keeps at most 6 connections to a host and a state stream holds one for as long
 * as its page is open: with a stream per tab, a 7th tab would wait for good. So one page
 * of the site (the leader) holds the stream and hands each message to the others over a
 * BroadcastChannel. The newest claim to lead wins (equal claims: the lower rank), so a
 * page taking over from a leader gone quiet is never pushed back by it. A leader leaving
 * names the next; one not heard from for LOST_MS is replaced. Channel messages:
 * {hello}: a page asks who leads; {lead, since, online, state}: the leader (its answer,
 * its heartbeat, its claim); {state}, {online}: the stream's news; {bye, next}: the leader
 * leaves; {gone}: another page leaves. Without BroadcastChannel a page has its own stream. */
TC.stream = function (on, shownEpoch) {
  const BEAT_MS = 1000;
  const LOST_MS = 5000;
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("tc-stream") : null;
  const me = Math.random();
  const send = (message) => { if (channel) channel.postMessage(message); };
  const others = new Set();  // while leading: the pages that said hello
  let source = null;
  let leading = false;
  let leader = null;  // {rank, since} of the page leading, as last heard
  let heard = performance.now();
  let last = null;  // the latest state's text
  let online = null;  // whether the stream is connected; null: not known yet
  const claim = () => ({lead: me, since: leader.since, online, state: last});
  const beats = (a, b) => a.since > b.since || (a.since === b.since && a.rank < b.rank);
  const tell = (value) => {
    online = value;
    if (leading) send({online: value});
    on.online(value);
  };
  const open = () => {
    if (source) source.close();
    const epoch = shownEpoch();
    const here = source = new EventSource(epoch === null ? "/api/events" : `/api/events?epoch=${epoch}`);
    here.addEventListener("state", (e) => {
      last = e.data;
      send({state: e.data});
      tell(true);
      on.state(JSON.parse(e.data));
    });
    here.addEventListener("open", () => tell(true));
    here.addEventListener("error", () => {
      tell(false);
      // The browser retries with Last-Event-ID; if it gave up, start again.
      if (here.readyState === EventSource.CLOSED) setTimeout(() => { if (source === here) open(); }, 3000);
    });
  };
  const lead = () => {
    if (leading) return;
    leading = true;
    leader = {rank: me, since: Date.now()};
    open();
    send(claim());
  };
  const follow = (rank, since) => {
    if (leading) {
      leading = false;
      if (source) source.close();
      source = null;
    }
    if (!leader || leader.rank !== rank) send({hello: me});  // a new leader learns of this page
    leader = {rank, since};
    heard = performance.now();
  };
  if (channel) {
    channel.onmessage = ({data: m}) => {
      if ("hello" in m) {
        if (leading) { others.add(m.hello); send(claim()); }
      } else if ("gone" in m) {
        others.delete(m.gone);
      } else if ("lead" in m) {
        const other = {rank: m.lead, since: m.since};
        if (leading && !beats(other, leader)) { send(claim()); return; }  // it steps down
        if (leader && leader.rank !== m.lead && !beats(other, leader)) return;
        follow(m.lead, m.since);
        if (m.state && m.state !== last) { last = m.state; on.state(JSON.parse(m.state)); }
        if (m.online !== null && m.online !== online) { online = m.online; on.online(m.online); }
      } else if (!leading) {
        heard = performance.now();
        if ("state" in m) { last = m.state; on.state(JSON.parse(m.state)); }
        if ("online" in m) { online = m.online; on.online(m.online); }
        if ("bye" in m && leader && m.bye === leader.rank) {
          leader = null;
          if (m.next === me) lead();
        }
      }
    };
    setInterval(() => {
      if (leading) send({lead: me, since: leader.since, online, state: null});
      else if (performance.now() - heard > LOST_MS) lead();
    }, BEAT_MS);
    window.addEventListener("pagehide", () => {
      if (!leading) { send({gone: me}); return; }
      const [next] = others;  // any page that said hello
      send({bye: me, next: next === undefined ? null : next});
      leading = false;
      source.close();
      source = null;
    });
    // Back from the browser's page cache: find the leader again (or lead).
    window.addEventListener("pageshow", (e) => { if (e.persisted) { leader = null; wake(); } });
    send({hello: me});
    // A leader answers at once; none within a moment: this page leads.
    setTimeout(() => { if (!leader) lead(); }, 300);
  } else {
    lead();
  }
  /** Make sure the stream is open (after a sleep, a network change). */
  const wake = () => {
    if (leading) { if (!source || source.readyState === EventSource.CLOSED) open(); }
    else if (!leader) { send({hello: me}); setTimeout(() => { if (!leader) lead(); }, 300); }
  };
  return {wake};
};

/* --- boards --- */

TC.boards = {};
/* What an undo took back (companion/undone.py) in words; game scripts add theirs. */
TC.eventWords = {};
TC.lastWords = {};
TC.undoneWords = (u, g) => {
  if (u.last && TC.lastWords[g]) return TC.lastWords[g](u.last);
  const what = (TC.eventWords[g] || {})[u.type] || u.type.replace(/_/g, " ");
  return u.to ? TC.t("{what} to {name}", {what, name: u.to})
    : u.by ? TC.t("{what} by {name}", {what, name: u.by}) : what;
};

/* A page carries the style and scripts of the game on the table only (a phone on the
   Pi's Wi-Fi downloads no other game's code); those of the others, as the page names them
   ({game: [url, ...]}: its style, then its scripts), come when a match of that game starts. */
TC.modules = JSON.parse(document.getElementById("modules").textContent);
TC.loading = {};

/** Resolves once the style of `game` has loaded and its scripts have run (none for a
 *  falsy or unknown game). */
TC.need = function (game) {
  const urls = (game && TC.modules[game]) || [];
  return Promise.all(urls.map((url) => (url.endsWith(".css") ? TC.style(url) : TC.script(url))));
};

/** Resolves once the stylesheet at `href` has loaded (added once, whoever asks). */
TC.style = function (href) {
  if (!TC.loading[href]) {
    const link = document.querySelector(`link[rel=stylesheet][href="${href}"]`);
    // A stylesheet the page was served with is in force already.
    TC.loading[href] = link ? Promise.resolve()
      : new Promise((resolve, reject) => {
        document.head.append(TC.el("link", {rel: "stylesheet", href, onload: resolve, onerror: () => {
          delete TC.loading[href];
          reject(new Error(TC.t("could not load {what}: reload the page", {what: href})));
        }}));
      });
  }
  return TC.loading[href];
};

/** Resolves once the script at `src` has run (loaded once, whoever asks). */
TC.script = function (src) {
  if (!TC.loading[src]) {
    // Scripts the page was served with have run already.
    TC.loading[src] = [...document.scripts].some((s) => s.getAttribute("src") === src) ? Promise.resolve()
      : new Promise((resolve, reject) => {
        const script = TC.el("script", {src, onload: resolve, onerror: () => {
          delete TC.loading[src];
          reject(new Error(TC.t("could not load {what}: reload the page", {what: src})));
        }});
        script.async = false;  // run in order: a game's host script builds on its board's
        document.body.append(script);
      });
  }
  return TC.loading[src];
};

/* --- timeline charts --- */

/** Show a match's timeline in `container` (web/static/timeline.js, TC.timeline.show: `source`
 *  "current" with the table `state` shown, or a stored match's id). The chart's script
 *  and its stylesheet are fetched once the page has loaded, so the scoreboard's first load
 *  does without them. */
TC.showTimeline = function (container, source, state) {
  const loaded = document.readyState === "complete" ? Promise.resolve()
    : new Promise((resolve) => window.addEventListener("load", resolve, {once: true}));
  container.tcAsked = [source, state];
  loaded.then(() => Promise.all([TC.style("/static/timeline.css"), TC.script("/static/timeline.js")]))
    .then(() => {
      // Only the newest call counts when several waited for the script.
      if (container.tcAsked[1] === state) TC.timeline.show(container, source, state);
    }, (err) => container.replaceChildren(TC.el("p", {class: "error"}, err.message)));
};

/** Draw the state's board in `container`; a game whose script is not here yet is drawn
 *  as soon as it arrives, unless a newer state was drawn meanwhile. `drawn(state)`, when
 *  given, is called after each drawing (the game's board code is here by then). */
TC.renderBoard = function (container, state, drawn) {
  container.tcState = state;
  const match = state.match;
  const draw = () => {
    if (container.tcState !== state) return;
    container.replaceChildren(...(!match ? TC.noMatch(container, state)
      : [(TC.boards[match.game] || TC.boards.generic)(match)]));
    // A match of the hall's tournament says which: "R2 · Tuesday Swiss" above the board.
    if (match && match.event) {
      container.prepend(TC.el("p", {class: "hint event"}, TC.t("R{round} · {event}", {round: match.event.round, event: match.event.name})));
    }
    TC.steady(container, match ? `${state.epoch}/${match.id}` : "none");
    if (drawn) drawn(state);
  };
  if (!match || TC.boards[match.game] || !TC.modules[match.game]) { draw(); return; }
  TC.need(match.game).then(draw, (err) => {
    if (container.tcState === state) container.replaceChildren(TC.el("p", {class: "error"}, err.message));
  });
};

/** Keep `box` from getting shorter while it shows one thing (`key`: a match): its least
 *  height is the tallest it has been drawn for that key, so what lies under it never moves
 *  up and down from one state to the next (a phone's reader loses their place; the
 *  Layout Instability API counts every move of what is on the screen). Called after each
 *  drawing of `box`; another key, or the page at another width, starts again. */
TC.steady = function (box, key) {
  const width = document.documentElement.clientWidth;
  if (box.tcSteady !== key || box.tcWidth !== width) {
    box.tcSteady = key;
    box.tcWidth = width;
    box.tcTallest = 0;
  }
  box.style.minHeight = "";
  box.tcTallest = Math.max(box.tcTallest, box.offsetHeight);
  box.style.minHeight = `${box.tcTallest}px`;
};

/* Each game's parts of the host page, by game id (their contract: host.js). */
TC.hosts = {};

/** What an empty table says: "No match in play.", then what the newest match played
 *  came to ("Last: Ann v Bob: Ann won · 6-4 6-3") and its final board under it, or that
 *  none was played yet, once the history answers (GET /api/history), unless a newer state
 *  was drawn meanwhile. A match ended with nothing played (a rematch started, then
 *  ended) is passed over: the match before it is the one people want to see. */
/** A stored match's players by side, from its history row's `teams` (each side's player
 *  indexes; companion/teams.py): [[names of side 1], [names of side 2], ...]. `name(i)`
 *  makes each player's node or text. A row without `teams` (an older table) has every
 *  player alone. */
TC.sides = (m, name = (i) => m.players[i]) =>
  (Array.isArray(m.teams) && m.teams.length ? m.teams : m.players.map((_, i) => [i]))
    .map((side) => side.map(name));

/** A stored match's players in words by side: "Ann & Cy v Bob & Dee", "Ann v Bob & Cy"
 *  (Canadian doubles), "Ann v Bob v Cy" (everyone for themselves). */
TC.sidesText = (m) => TC.sides(m).map((side) => side.join(" & ")).join(" v ");

TC.noMatch = function (container, state) {
  const line = TC.el("p", {class: "empty"}, TC.t("No match in play."));
  const last = TC.el("div", {class: "last-match"});
  TC.readJSON("/api/history?limit=5", {cache: "no-store"}).then((rows) => {
    if (container.tcState !== state) return;
    const m = rows.find((row) => !(row.status === "abandoned" && !row.plays)) || rows[0];
    if (!m) { line.textContent = TC.t("No match played yet."); return; }
    const winners = m.players.filter((_, i) => (Array.isArray(m.winner) ? m.winner.includes(i) : m.winner === i));
    const came = m.status === "abandoned" ? TC.t("ended unfinished")
      : winners.length ? TC.t("{names} won", {names: winners.join(" & ")}) : "";
    line.append(" ", TC.isolate(TC.t("Last: {match}: {outcome}",
      {match: TC.sidesText(m), outcome: [came, m.summary].filter(Boolean).join(" · ")})));
    if (m.status !== "finished") return;
    return TC.readJSON(`/api/matches/${m.id}`, {cache: "no-store"}).then((match) => {
      if (container.tcState === state) TC.renderBoard(last, {match});
    });
  }).catch(() => {});
  return [line, last];
};

/* --- the match's card: the score as the hall card reads it ------------------------------
   The state's `match.card` is the game's card face (companion/headline.py score_card, the
   same reading as the hall's card and the MQTT summary): `score` (the line), `columns` (the
   headings of each side's cells) and `sides` ([{name, score: [cells], turn, winner}]). The
   hall's cards, the generic board and the host page's score header draw it, so a game
   without page scripts of its own shows names, scores, whose turn and the winner. */

/** The card as a table: a row per side (its colour, ▶ when it is to play, "Won"), its
 *  cells under the card's column headings, the last cell `td.last` (the one that changes
 *  most: the points). `cls`: the table's class. */
TC.cardTable = function (card, cls) {
  const el = TC.el;
  return el("table", {class: cls},
    el("thead", {}, el("tr", {}, el("td", {}), card.columns.map((c) => el("th", {scope: "col"}, c)))),
    el("tbody", {}, card.sides.map((side, i) => el("tr", {class: [side.turn && "turn", side.winner && "winner"].filter(Boolean).join(" ") || null},
      // Seat colours as on the game boards: two sides, or up to four players.
      el("th", {scope: "row", class: `name player-${i % 4}`},
        side.turn ? el("span", {class: "mark", "aria-hidden": "true"}, "▶ ") : null,
        side.name,
        side.turn ? el("span", {class: "sr-only"}, " " + TC.t("(to play)")) : null,
        side.winner ? [" ", el("span", {class: "chip won"}, TC.t("Won"))] : null),
      side.score.map((cell, j) => el("td", {class: j === side.score.length - 1 ? "last" : null}, cell))))));
};

/** The board of a game without a board script of its own: who is to play or who won, and
 *  the card's table at the size of a game's score. */
TC.boards.generic = function (match) {
  const el = TC.el;
  const card = match.card;
  const names = (pick) => card.sides.filter(pick).map((s) => s.name).join(" & ");
  const over = match.status !== "active";
  const head = over ? (names((s) => s.winner) ? TC.t("{names} won", {names: names((s) => s.winner)})
    : TC.t("Finished")) : names((s) => s.turn) ? TC.t("{names} to play", {names: names((s) => s.turn)}) : "";
  return el("div", {class: `generic${over ? " over" : ""}`},
    el("p", {class: `head${over ? " over" : ""}`}, head),
    card.sides.length ? TC.cardTable(card, "score card") : null);
};

/* A game's board script may give its board a `title(match)`: the score in a few words, for
   the page title (a tab or a lock screen shows it). Without one, the card's score line. */
TC.boards.generic.title = (match) => (match.card && match.card.score
  ? `${match.card.sides.map((s) => s.name).join(" v ")}: ${match.card.score}` : null);

/** The page title for `state`: its score first (a narrow tab shows the start), then the app. */
TC.title = function (state) {
  const match = state.match;
  const board = match && TC.boards[match.game];
  const score = board && board.title ? board.title(match) : null;
  return score ? `${score} · Table Companion` : "Table Companion";
};

/** Each side's or player's colour (app.css: --side-N, --player-N): a stripe beside the name. */
TC.swatch = (i, kind = "side") => TC.el("span", {class: `swatch ${kind}-${i}`, "aria-hidden": "true"});

/** How many units `text` takes in a drawing's `font` (a CSS font: "600 13px system-ui"),
 *  measured with the page's own font, no layout needed. */
TC.textWidth = function (text, font) {
  TC.textWidth.ruler = TC.textWidth.ruler || document.createElement("canvas").getContext("2d");
  TC.textWidth.ruler.font = font;
  return TC.textWidth.ruler.measureText(String(text)).width;
};

/** Attributes that keep an SVG text of `size` units within `room` units (a drawing cannot
 *  wrap: 16 capitals W do not fit a phone's chart or court): none if it fits; else a
 *  smaller size, down to `smallest`; past that, its glyphs drawn closer to fit. */
TC.fitText = function (text, room, {size, smallest = size, weight = 400, family = "system-ui, sans-serif"}) {
  const wide = TC.textWidth(text, `${weight} ${size}px ${family}`);
  if (wide <= room) return {};
  const smaller = Math.max(smallest, Math.floor(size * room / wide * 10) / 10);
  return smaller * wide / size <= room ? {"font-size": smaller}
    : {"font-size": smallest === size ? null : smallest, textLength: room, lengthAdjust: "spacingAndGlyphs"};
};

/** " long" for a name too long to be written at a score's size on a phone (app.css writes
 * it smaller and lets it break), else "": added to the name's class. */
TC.nameClass = (name) => (String(name).length > 10 ? " long" : "");

/** A small table of counts by side: rows of [label, [count per side]], columns the names. */
TC.statsTable = function (caption, names, rows, kind = "side") {
  const el = TC.el;
  return el("table", {class: "stats live"},
    el("caption", {}, caption),
    el("thead", {}, el("tr", {}, el("td", {}),
      names.map((n, i) => el("th", {scope: "col", class: `by ${kind}-${i}`}, n)))),
    el("tbody", {}, rows.map(([label, counts]) => el("tr", {},
      el("th", {scope: "row"}, label), counts.map((c) => el("td", {}, c))))));
};
