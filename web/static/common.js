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
  let source = null;
  const show = (state) => {
    // An answer to a change (or its retry, answered with the first outcome) can
    // arrive after the stream already showed a later version: never go back.
    if (state.epoch === epoch && state.version <= version) return;
    version = state.version;
    epoch = state.epoch;
    onState(state);
  };
  const setOffline = (off) => { offline.hidden = !off; };
  const open = () => {
    if (source) source.close();
    source = new EventSource(epoch === null ? "/api/events" : `/api/events?epoch=${epoch}`);
    source.addEventListener("state", (e) => { setOffline(false); show(JSON.parse(e.data)); });
    source.addEventListener("open", () => setOffline(false));
    source.addEventListener("error", () => {
      setOffline(true);
      // The browser retries with Last-Event-ID; if it gave up, start again.
      if (source.readyState === EventSource.CLOSED) setTimeout(open, 3000);
    });
  };
  const resync = () => {
    fetch("/api/state", {cache: "no-store"})
      .then((r) => r.json()).then((s) => { setOffline(false); show(s); })
      .catch(() => setOffline(true));
    if (!source || source.readyState === EventSource.CLOSED) open();
  };
  // A phone that slept or lost the network catches up as soon as it is back.
  document.addEventListener("visibilitychange", () => { if (!document.hidden) resync(); });
  window.addEventListener("online", resync);
  window.addEventListener("offline", () => setOffline(true));
  show(TC.initial);
  open();
  return {resync, show};
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
  return Promise.all(urls.map((src) => {
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
  }));
};

/** Draw the state's board in `container`; a game whose script is not here yet is drawn
 *  as soon as it arrives, unless a newer state was drawn meanwhile. `drawn(state)`, when
 *  given, is called after each drawing (the game's board code is here by then). */
TC.renderBoard = function (container, state, drawn) {
  container.tcState = state;
  const match = state.match;
  const draw = () => {
    if (container.tcState !== state) return;
    container.replaceChildren(!match ? TC.el("p", {class: "empty"}, "No match on the table yet.")
      : (TC.boards[match.game] || TC.boards.generic)(match));
    if (drawn) drawn(state);
  };
  if (!match || TC.boards[match.game] || !TC.modules[match.game]) { draw(); return; }
  TC.need(match.game).then(draw, (err) => {
    if (container.tcState === state) container.replaceChildren(TC.el("p", {class: "error"}, err.message));
  });
};

TC.boards.generic = function (match) {
  return TC.el("pre", {class: "generic"}, JSON.stringify(match.view, null, 1));
};

/* A game's board script may give its board a `title(match)`: the score in a few words, for
   the page title (a tab or a lock screen shows it). Without one the title names the game. */
TC.boards.generic.title = () => null;

/** The page title for `state`: its score first (a narrow tab shows the start), then the app. */
TC.title = function (state) {
  const match = state.match;
  const board = match && TC.boards[match.game];
  const score = board && board.title ? board.title(match) : null;
  return score ? `${score} · Table Companion` : "Table Companion";
};

/** Each side's or player's colour (app.css: --side-N, --player-N): a stripe beside the name. */
TC.swatch = (i, kind = "side") => TC.el("span", {class: `swatch ${kind}-${i}`, "aria-hidden": "true"});

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

TC.boards["center-court"] = function (match) {
  const el = TC.el;
  const v = match.view;
  const over = v.winner !== null;
  let head;
  // Once won, nothing is being played: the sets, from the winner's side.
  if (over) head = TC.boards["center-court"].title(match);
  else {
    const parts = [`Set ${v.set_number}`];
    if (v.match_tiebreak) parts.push("Match tiebreak");
    else if (v.tiebreak) parts.push("Tiebreak");
    else if (v.deuce) parts.push("Deuce");
    else if (v.advantage !== null) parts.push(`Advantage ${v.players[v.advantage]}`);
    head = parts.join(" · ");
  }
  const done = v.sets.length;
  const rows = [0, 1].map((p) => {
    const serving = !over && v.server === p;
    return el("tr", {class: [v.winner === p ? "winner" : "", serving ? "serving" : ""].join(" ").trim() || null,
      "data-player": p},
    el("td", {class: "serve"}, serving ? el("span", {class: "ball", title: "serving"}, "●",
      el("span", {class: "sr-only"}, " serving")) : null),
    el("th", {scope: "row", class: `name side-${p}`}, v.players[p],
      v.winner === p ? [" ", el("span", {class: "chip won"}, "winner")] : null),
    v.sets.map((s, i) => {
      const tb = v.set_tiebreaks[i];
      // A match tiebreak is recorded as a set won 1-0: show its points instead.
      if (tb && Math.max(...s) === 1) return el("td", {class: "set mtb"}, tb[p]);
      return el("td", {class: "set"}, s[p], tb ? el("sup", {}, tb[p]) : null);
    }),
    over ? null : el("td", {class: "games"}, v.games[p]),
    over ? null : el("td", {class: "points"}, v.points[p]));
  });
  const heads = el("tr", {},
    el("td", {}), el("td", {}),
    done ? el("th", {scope: "colgroup", colspan: done, class: "col-set"}, done === 1 ? "Set" : "Sets") : null,
    over ? null : el("th", {scope: "col", class: "col-games"}, v.tiebreak ? "Gms" : "Games"),
    over ? null : el("th", {scope: "col", class: "col-points"}, v.tiebreak ? "TB" : "Points"));
  // The call has a line of its own, kept when empty: its arrival moves nothing.
  let call = null;
  if (v.call === "double_fault") call = "DOUBLE FAULT";
  // serve is 2 exactly while a second serve is due: after a first-serve fault,
  // never with the ball in play.
  else if (v.serve === 2) call = "FAULT · second serve";
  const status = [];
  if (v.last_serve) {
    const s = v.last_serve;
    status.push(`Last serve: ${s.card}` + (v.rally_serve === 2 ? " (2nd)" : "") +
      (s.roll === null ? "" : `, die ${s.roll}`));
  }
  if (v.in_play) status.push(`Ball in play: ${v.volley} to ${v.players[v.to_return]}`);
  const st = v.stats;
  const stats = TC.statsTable("Match stats", v.players, [
    ["Points won", st.map((s) => s.points_won)],
    ["Won on serve", st.map((s) => s.serve_points_won)],
    ["Faults", st.map((s) => s.faults)],
    ["Double faults", st.map((s) => s.double_faults)],
  ]);
  return el("div", {class: `cc${over ? " over" : ""}`},
    el("p", {class: `head${over ? " over" : ""}`}, head),
    el("table", {class: "score"}, el("thead", {}, heads), el("tbody", {}, rows)),
    el("p", {class: "callout"}, call ? el("strong", {class: "call"}, call) : null),
    el("p", {class: "status"}, status.join(" · ")),
    stats,
    el("p", {class: "rally"}, "Longest rally: ",
      el("strong", {}, v.longest_rally ? `${v.longest_rally} shot${v.longest_rally === 1 ? "" : "s"}`
        : over ? "none" : "none yet")));
};

TC.boards["center-court"].title = function (match) {
  const v = match.view;
  // Once won, the board's head says the same.
  if (v.winner !== null) return `${v.players[v.winner]} wins ${v.final_score}`;
  const sets = v.sets.map((s) => `${s[0]}-${s[1]}`);
  return `${v.players[0]} v ${v.players[1]}: ${[...sets, `${v.games[0]}-${v.games[1]}`].join(" ")}, ` +
    `${v.points[0]}-${v.points[1]}`;
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
