/* Shared by every page: the state stream, the boards of each game, the host session. */
"use strict";

const TC = {};

/** Make an element: el("p", {class: "x"}, "text", child). Text is never parsed as HTML. */
TC.el = function (tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
};

/** The state the page was served with, so it shows at once. */
TC.initial = JSON.parse(document.getElementById("state").textContent);

/**
 * Follow the table: calls onState(state) now and on every new state.
 * A state is new when its version or its epoch (the database's identity)
 * differs from the one shown: a new database counts its versions from 0
 * again. The stream is opened naming the epoch shown, so a reconnect at the
 * same version number of another database still gets the state.
 */
TC.follow = function (onState) {
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
  const setOffline = (off) => { offline.hidden = !off; };
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

/* --- boards -------------------------------------------------------------------- */

TC.boards = {};

/* A page carries the scripts of the game on the table only (a phone on the Pi's Wi-Fi
   downloads no other game's code); the scripts of the others, as the page names them
   ({game: [url, ...]}), come when a match of that game starts. */
TC.modules = JSON.parse(document.getElementById("modules").textContent);
TC.loading = {};

/** Resolves once the scripts of `game` (none for a falsy or unknown game) have run. */
TC.need = function (game) {
  const urls = (game && TC.modules[game]) || [];
  return Promise.all(urls.map(TC.script));
};

/** Resolves once the script at `src` has run (loaded once, whoever asks). */
TC.script = function (src) {
  if (!TC.loading[src]) {
    // Scripts the page was served with have run already.
    TC.loading[src] = [...document.scripts].some((s) => s.getAttribute("src") === src) ? Promise.resolve()
      : new Promise((resolve, reject) => {
        const script = TC.el("script", {src, onload: resolve, onerror: () => {
          delete TC.loading[src];
          reject(new Error(`could not load ${src}: reload the page`));
        }});
        script.async = false;  // run in order: a game's host script builds on its board's
        document.body.append(script);
      });
  }
  return TC.loading[src];
};

/* --- timeline charts (helper B) --------------------------------------------------------- */

/** Show a match's timeline in `container` (web/static/timeline.js, TC.timeline.show: `source`
 *  "current" with the table `state` shown, or a stored match's id). The chart's script
 *  is fetched once the page has loaded, so the scoreboard's first load does without it. */
TC.showTimeline = function (container, source, state) {
  const loaded = document.readyState === "complete" ? Promise.resolve()
    : new Promise((resolve) => window.addEventListener("load", resolve, {once: true}));
  container.tcAsked = [source, state];
  loaded.then(() => TC.script("/static/timeline.js")).then(() => {
    // Only the newest call counts when several waited for the script.
    if (container.tcAsked[1] === state) TC.timeline.show(container, source, state);
  }, (err) => container.replaceChildren(TC.el("p", {class: "error"}, err.message)));
};

/** Draw the state's board in `container`; a game whose script is not here yet is drawn
 *  as soon as it arrives, unless a newer state was drawn meanwhile. */
TC.renderBoard = function (container, state) {
  container.tcState = state;
  const match = state.match;
  const draw = () => {
    if (container.tcState !== state) return;
    container.replaceChildren(!match ? TC.el("p", {class: "empty"}, "No match on the table yet.")
      : (TC.boards[match.game] || TC.boards.generic)(match));
  };
  if (!match || TC.boards[match.game] || !TC.modules[match.game]) { draw(); return; }
  TC.need(match.game).then(draw, (err) => {
    if (container.tcState === state) container.replaceChildren(TC.el("p", {class: "error"}, err.message));
  });
};

TC.boards.generic = function (match) {
  return TC.el("pre", {class: "generic"}, JSON.stringify(match.view, null, 1));
};

TC.boards["center-court"] = function (match) {
  const v = match.view;
  const over = v.winner !== null;
  const head = [];
  // Once won, nothing is being played: the sets, from the winner's side.
  if (over) head.push(`${v.players[v.winner]} wins ${v.final_score}`);
  else {
    head.push(`Set ${v.set_number}`);
    if (v.match_tiebreak) head.push("Match tiebreak");
    else if (v.tiebreak) head.push("Tiebreak");
    else if (v.deuce) head.push("Deuce");
    else if (v.advantage !== null) head.push(`Advantage ${v.players[v.advantage]}`);
  }
  const rows = [0, 1].map((p) => TC.el("tr", {class: v.winner === p ? "winner" : ""},
    TC.el("td", {class: "serve", "aria-label": !over && v.server === p ? "serving" : null},
      !over && v.server === p ? "●" : ""),
    TC.el("th", {scope: "row", class: "name"}, v.players[p]),
    v.sets.map((s, i) => {
      const tb = v.set_tiebreaks[i];
      // A match tiebreak is recorded as a set won 1-0: show its points instead.
      if (tb && Math.max(...s) === 1) return TC.el("td", {class: "set mtb"}, tb[p]);
      return TC.el("td", {class: "set"}, s[p], tb ? TC.el("sup", {}, tb[p]) : null);
    }),
    over ? null : TC.el("td", {class: "games"}, v.games[p]),
    over ? null : TC.el("td", {class: "points"}, v.points[p])));
  const status = [];
  if (v.call === "double_fault") status.push(TC.el("strong", {class: "call"}, "DOUBLE FAULT"));
  // serve is 2 exactly while a second serve is due: after a first-serve fault,
  // never with the ball in play.
  else if (v.serve === 2) status.push(TC.el("strong", {class: "call"}, "FAULT · second serve"));
  if (v.last_serve) {
    const s = v.last_serve;
    status.push(`Last serve: ${s.card}` + (v.rally_serve === 2 ? " (2nd)" : "") +
      (s.roll === null ? "" : `, die ${s.roll}`));
  }
  if (v.in_play) status.push(`Ball in play: ${v.volley} to ${v.players[v.to_return]}`);
  return TC.el("div", {class: "cc"},
    TC.el("p", {class: "head"}, head.join(" · ")),
    TC.el("table", {class: "score"}, TC.el("tbody", {}, rows)),
    TC.el("p", {class: "status"}, status.map((s, i) => [i ? " · " : "", s])));
};

/* --- the host's session ------------------------------------------------------------- */

TC.csrf = null;

/** POST JSON as the host; resolves to the parsed answer, rejects with its error text
 *  (the error's `status` is the HTTP status, none when no answer came; `stale`: refused
 *  only because the table moved on since `version`, then at the error's `version`). With `key`, the
 *  request carries it as its Idempotency-Key: a retry with the same key is never applied twice.
 *  With `version` (the table version the user saw when acting), the table refuses the change
 *  (409) if it has moved on meanwhile, from the panel or another phone.
 *  A 403 asks the table whether this browser is still the host: if another tab logged in
 *  since (a new CSRF token), the request is sent once more with it; if the session has
 *  ended (a logout on any phone, a new PIN, hours unused), the login form comes back. */
TC.post = function (path, body, {key, version} = {}, again = true) {
  const headers = {"Content-Type": "application/json", "X-CSRF-Token": TC.csrf || ""};
  if (key) headers["Idempotency-Key"] = key;
  if (version !== undefined) headers["X-Table-Version"] = String(version);
  return fetch(path, {method: "POST", headers, body: JSON.stringify(body === undefined ? {} : body)})
    .then((r) => r.json().catch(() => ({})).then((data) => {
      if (!r.ok) throw Object.assign(new Error(data.error || r.statusText), {status: r.status,
        stale: data.stale === true, version: data.version});
      return data;
    }))
    .catch((err) => {
      if (err.status !== 403 || !again) throw err;
      return TC.session().then((s) => {
        if (s.host && s.csrf !== TC.csrf) { TC.csrf = s.csrf; return TC.post(path, body, {key, version}, false); }
        if (!s.host && TC.sessionEnded) TC.sessionEnded(err.message);
        throw err;
      }, () => { throw err; });
    });
};

/** Whether this browser is the host: {host, csrf}. */
TC.session = () => fetch("/api/session", {cache: "no-store"}).then((r) => r.json());

/** A new random Idempotency-Key (crypto.randomUUID needs HTTPS; a phone on the LAN has none). */
TC.newKey = () => Array.from(crypto.getRandomValues(new Uint8Array(16)),
  (b) => b.toString(16).padStart(2, "0")).join("");

/** Show the login form until the PIN is right, then call onHost() (again after every
 *  later login). When the session ends (TC.post found out, or the phone woke up to an
 *  ended session), the form comes back with the reason and onEnded() is called. */
TC.login = function (form, onHost, onEnded) {
  const fail = form.querySelector(".error");
  let host = false;
  const ended = (why) => {
    if (!host) return;
    host = false;
    TC.csrf = null;
    fail.textContent = why;
    form.hidden = false;
    if (onEnded) onEnded();
  };
  const welcome = (csrf) => { host = true; TC.csrf = csrf; form.hidden = true; onHost(); };
  TC.sessionEnded = ended;
  TC.session().then((s) => { if (s.host) welcome(s.csrf); else form.hidden = false; });
  // A phone left idle: find out on waking whether the session outlived the pause.
  document.addEventListener("visibilitychange", () => {
    if (document.hidden || !host) return;
    TC.session().then((s) => {
      if (!s.host) ended("this host session has ended (a logout, a new PIN or hours unused): log in with the PIN");
    }, () => {});
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    fail.textContent = "";
    fetch("/api/login", {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({pin: form.pin.value})})
      .then((r) => r.json().then((d) => {
        if (!r.ok) throw new Error(d.error);
        form.pin.value = "";
        welcome(d.csrf);
      }))
      .catch((err) => { fail.textContent = err.message; });
  });
};
