"use strict";

/* The score header and names cut to one line: only the host page draws them. */

/* Each game's parts of the host page, registered in TC.hosts by its host script
   (static/<game>-host.js, loaded with its board's) under the game's id, as its board
   script registers its board:
   - controls(box, match, send): the controls the rules allow now, appended to `box`; a tap
     calls send(action, near) (near: the control's group, where a refusal is said);
   - startForm(box, game, current), optional: the start form's own parts, appended to the
     options `box` (current: the rematch record of this game, or null); returns a function
     that adds them to the options sent.
   A game without one gets the generic controls built from its `legal`. */

/** The score in one glance, for the top of a page (the host page keeps it in sight while
 *  the controls scroll under it): a line per side, or two sides a line past two, each its
 *  colour, its name on one line (cut, whole in its title), ▶ while it is to play, its
 *  cells (the last, the points, bold) and "Won". Drawn into `box` from the state's card;
 *  hidden while no match is on the table. Its size changes only with the number of sides. */
TC.scoreHeader = function (box, state) {
  const el = TC.el;
  const match = state.match;
  box.hidden = !match;
  if (!match) { box.replaceChildren(); return; }
  const card = match.card;
  box.replaceChildren(el("ol", {class: `sides n${card.sides.length}`}, card.sides.map((side, i) => el("li",
    {class: [`side player-${i % 4}`, side.turn && "turn", side.winner && "winner"].filter(Boolean).join(" ")},
    el("span", {class: "mark", "aria-hidden": "true"}, side.turn ? "▶" : ""),
    el("span", {class: "who", title: side.name}, side.name),
    side.turn ? el("span", {class: "sr-only"}, " " + TC.t("(to play)")) : null,
    // Past two sides the line is short: the winner's is marked by its colour alone.
    side.winner ? el("span", {class: card.sides.length > 2 ? "sr-only" : "chip won"}, card.sides.length > 2 ? " " + TC.t("(won)") : TC.t("Won")) : null,
    el("span", {class: "cells"}, side.score.map((cell, j) => el("span",
      {class: j === side.score.length - 1 ? "cell last" : "cell"},
      card.columns[j] ? el("span", {class: "sr-only"}, ` ${card.columns[j]} `) : null, cell)))))));
  TC.tellApart(box);
};

/** Names cut to one line never look alike. A name in a `.who` span of `box` that is too
 *  wide for it is cut at its end ("SMITHERSON J…"); where that leaves two names showing the
 *  same, each of them shows instead what tells it from the others, measured in its own
 *  font: its end ("…ERSON JOHN"), else the letters around the first one it differs at
 *  ("…ONAB…"). The whole name stays the span's (or its button's) title and accessible
 *  name. Call it again whenever the box changes size (shown, turned, resized). */
TC.tellApart = function (box) {
  const spans = [...box.querySelectorAll(".who")];
  for (const span of spans) span.textContent = span.dataset.name ??= span.textContent;
  if (spans.length < 2) return;
  const names = spans.map((s) => s.dataset.name);
  const cut = spans.map((span, i) => {
    const room = span.clientWidth - 1;  // 0 or less: not laid out (the box hidden)
    const font = getComputedStyle(span).font;
    const wide = (text) => TC.textWidth(text, font);
    if (room <= 0 || wide(names[i]) <= room) return {room, wide, shown: names[i]};
    let end = names[i].length;
    while (end > 1 && wide(`${names[i].slice(0, end)}…`) > room) end -= 1;
    return {room, wide, shown: `${names[i].slice(0, end)}…`};
  });
  spans.forEach((span, i) => {
    const {room, wide, shown} = cut[i];
    if (!cut.some((c, j) => j !== i && c.shown === shown)) return;
    const name = names[i];
    const same = (other) => { let k = 0; while (k < name.length && name[k] === other[k]) k += 1; return k; };
    const differs = Math.max(...names.filter((_, j) => j !== i).map(same));  // the first letter its own
    let from = 0;
    while (from < name.length - 1 && wide(`…${name.slice(from)}`) > room) from += 1;
    let text = `…${name.slice(from)}`;
    if (from > differs) {  // its end is like another's too: the letters around the difference
      const start = Math.max(0, differs - 2);
      let end = name.length;
      while (end > differs + 1 && wide(`…${name.slice(start, end)}…`) > room) end -= 1;
      text = `…${name.slice(start, end)}…`;
    }
    span.textContent = text;
    const button = span.closest("button");
    if (button && button.title && !button.hasAttribute("aria-label")) button.setAttribute("aria-label", button.title);
  });
};

(function () {
  const $ = (id) => document.getElementById(id);
  const message = $("message");
  let state = TC.initial;
  let games = [];
  // A rematch of the last match (its start record, from the table): the start form is
  // filled from it, even once the table is empty again or the page was just opened.
  let rematch = null;

  /* The message says what became of the user's last tap, about one table state: a newer
     state clears it. A refusal is about the state the table refused it on (the one the
     tap was made on, or for a stale tap the newer one the resync then shows), so the
     reason stays beside the table it refers to until the next change. */
  const key = (s) => `${s.epoch}/${s.version}`;
  let about = null;  // key() of the state the message is about
  /* `news`: the message is no refusal or fault but news (what an undo took back): shown
     in the page's own colours (.note), not as an error. */
  const say = (text, of, news = false) => {
    message.textContent = TC.isolate(text);
    message.className = news ? "note" : "error";
    about = text ? of || key(state) : null;
  };
  const STALE = TC.t("Someone else changed the table just before your tap: nothing was recorded. Here is the table now.");
  // The table moved on by this page's own earlier tap, made on the same state (a second
  // tap before the first was answered): not "someone else".
  const EARLIER = TC.t("Your tap before this one was recorded first: this one was not. Here is the table now.");
  // A tap unanswered this long is said to be on its way (the table may be slow or stuck).
  const WAITING = TC.t("Waiting for the table to answer…");
  const WAIT_MS = 2000;
  let taps = 0;  // the taps made on this page: the latest owns the message
  const premises = new Map();  // key() of a tap's premise: its taps on their way or recorded

  /* Every change carries its own Idempotency-Key and the version it was made on. While
     the table is busy (503) or no answer came (the Wi-Fi dropped it), it is sent again
     with the same key: the table applies it at most once and answers a retry with the
     first outcome (and, were that memory lost in a restart, the premise refuses a second
     application: the table has moved on by the first). */
  const RETRIES = 8;
  /* A tap that got no answer at all (the companion is off, or went off around the tap). If
     the table was already away when it was made (the page showed "Offline"), it never
     arrived: it was not recorded. If the table went away while it was on its way, it may
     have arrived before: the page says it does not know, and once the table is back reads
     the state and says which it was. Either way the message goes when the table is back. */
  const NOT_RECORDED = TC.t("The table is not answering (is it off?): this tap was not recorded. Tap again once it is back.");
  const UNKNOWN = TC.t("The table stopped answering: this tap may not have been recorded: check the board once the table is back.");
  let unanswered = null;  // {epoch, version, sure}: the tap unanswered, its premise, whether surely lost
  const away = () => !$("offline").hidden;
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const home = $("actions");  // the message's place when no control is named: under the controls
  /** Put the message beside what the user tapped: after `near` (a control's group), in the
   *  bar when the tap was there, else after the group of the focused control (a tapped
   *  button has the focus), else under the controls. */
  const place = (near) => {
    const tapped = document.activeElement;
    if ($("bar").contains(tapped)) { $("bar").prepend(message); return; }
    const group = near || (home.contains(tapped) && tapped.closest("#actions fieldset, #actions .row"));
    (group || home).after(message);
  };
  const act = (path, body, near) => {
    place(near);
    say("");
    const idempotency = TC.newKey();
    // The premise: the state the controls on screen were drawn for (a newer state may
    // have arrived while its game's scripts load). Should the table have moved on
    // (the panel, another phone), the tap is refused rather than misapplied.
    const drawn = home.dataset.version;
    const version = drawn === undefined ? state.version : Number(drawn);
    unanswered = null;
    const tap = ++taps;
    const premise = key({epoch: state.epoch, version});
    premises.set(premise, (premises.get(premise) || 0) + 1);
    if (premises.size > 8) premises.delete(premises.keys().next().value);  // old states' taps
    const slow = setTimeout(() => { if (tap === taps && !message.textContent) say(WAITING, undefined, true); }, WAIT_MS);
    const gone = away();  // the table was away before the tap: retrying cannot help
    const attempt = (left) => TC.post(path, body, {key: idempotency, version}).catch((err) => {
      const lost = err.status === undefined;
      if (left > 0 && (err.status === 503 || (lost && !gone))) {
        say(lost ? TC.t("No answer from the table; trying again…") : TC.t("The table is busy; trying again…"));
        return pause(1000).then(() => attempt(left - 1));
      }
      throw err;
    });
    return attempt(RETRIES).then((s) => { if (tap === taps) say(""); stream.show(s); return s; })
      .catch((err) => {
        if (premises.has(premise)) premises.set(premise, premises.get(premise) - 1);  // not recorded: not first
        // Wherever it is said, the user sees it: the page scrolls as little as it can.
        requestAnimationFrame(() => message.scrollIntoView({block: "nearest"}));
        if (err.status === undefined) {  // no answer at all (never the browser's own words)
          unanswered = {epoch: state.epoch, version, sure: gone};
          say(gone ? NOT_RECORDED : UNKNOWN);
          if (!away()) back(true);  // the stream never lost the table: ask it now
          return null;
        }
        if (err.status !== 409) { say(err.message); return null; }
        // Refused by the rules or because the table moved on: show the table as it is now,
        // the reason beside it (a stale tap's in plain words; the API's names versions).
        // Another tap of this page on the same state, recorded or on its way, went first.
        const stale = premises.get(premise) > 0 ? EARLIER : STALE;
        say(err.stale ? stale : err.message, key({epoch: state.epoch, version: err.stale ? err.version : version}));
        stream.resync();
        return null;
      })
      .finally(() => clearTimeout(slow));
  };

  function renderActions() {
    const box = $("actions");
    const quick = $("quick");
    if (box.contains(message) || quick.contains(message)) home.after(message);  // its control is about to go
    box.replaceChildren();
    quick.replaceChildren();
    const match = state.match;
    $("undo").disabled = !(match && match.can_undo);
    $("redo").disabled = !(match && match.can_redo);
    $("bar").hidden = !match;  // nothing to undo on an empty table
    // The table version the controls are drawn for (what a tap's premise will be).
    box.dataset.version = state.version;
    renderMatchRow();
    if (match) {
      // The game's own controls (its host script, TC.hosts), else buttons from `legal`.
      const own = TC.hosts[match.game];
      (own ? own.controls : TC.legalControls)(box, match, (body, near) => act("/api/action", body, near));
      // The actions used most (a game marks them data-bar) go to the bar at the bottom of
      // the screen, in reach of the thumb however long the controls above them are.
      quick.append(...box.querySelectorAll("[data-bar]"));
      // Once the match is over the bar says how it ended, where its quick actions were.
      if (match.status !== "active") {
        const over = overText(match.card);
        quick.append(TC.el("p", {class: "over", title: over}, over));
      }
      TC.tellApart(quick);
      for (const empty of box.querySelectorAll(".row:empty")) empty.remove();
    }
    // The controls change with each shot: what lies under them (the board) keeps its place,
    // and so does the bar's top edge, for as long as the match is on the table (a win
    // moves nothing under the eyes of those watching it). Once it is gone (ended, or a new
    // one), the boxes take their new height rather than stand empty.
    const steady = match ? `${state.epoch}/${match.id}` : "none";
    TC.steady(box, steady);
    TC.steady($("bar"), steady);
  }

  /** How a match ended, in words, from its card: "Ann won", "Ann & Bob won", "Ended". */
  const overText = (card) => {
    const won = card.sides.filter((s) => s.winner).map((s) => s.name);
    return won.length ? TC.t("{names} won", {names: won.join(" & ")}) : TC.t("Over");
  };

  new ResizeObserver(() => TC.tellApart($("quick"))).observe($("quick"));

  /** The generic controls, for a game without a host script: one row of buttons per
   *  legal shape, a button per value of its list field (none: one button), labelled by
   *  `label(match, shape, value)`. A tap sends {type, [field]: value} with send(body, row);
   *  point rows go to the bar. A game's host script may build on it. */
  TC.legalControls = function (box, match, send, label = TC.legalLabel) {
    for (const shape of match.legal) {
      const field = Object.keys(shape).find((k) => Array.isArray(shape[k]));
      const row = TC.el("div", {class: "row", "data-action": shape.type, "data-bar": shape.type === "point" ? "" : null});
      for (const value of field ? shape[field] : [null]) {
        const body = field ? {type: shape.type, [field]: value} : {type: shape.type};
        const button = TC.el("button", {type: "button", onclick: () => send({...body}, row)}, label(match, shape, value));
        // A name cut to one line (the bar's point buttons) is whole in the button's title.
        if (button.querySelector(".who")) button.title = button.textContent;
        row.append(button);
      }
      box.append(row);
    }
  };

  /** A generic button's words: "Point Ann" for a point's winner (the name on a line of its
   *  own, cut with an ellipsis where it is too wide: the bar stays two lines tall), else the
   *  action and its value. */
  TC.legalLabel = (match, shape, value) => (shape.type === "point" && match.players[value] !== undefined
    ? [TC.t("Point") + " ", TC.el("span", {class: "who"}, match.players[value])]
    : `${shape.type.replace(/_/g, " ")} ${value ?? ""}`.trim());

  /* The match's own actions, at the top of the page whatever the game's controls below:
     End while a match is played; Rematch (the last match again, same players and options,
     one tap) and New match (the form) once none is. Undo and Redo are in the bar. */
  function renderMatchRow() {
    const match = state.match;
    const active = !!(match && match.status === "active");
    $("end").hidden = !active;
    const again = !active && rematch && rematchFor === folded ? rematch : null;
    $("rematch").hidden = !again;
    if (again) {
      $("rematch").setAttribute("aria-label", TC.t("Rematch: {players}, same options", {players: again.players.join(", ")}));
      // Above a form set to another game, it names its own (it does not play the form's).
      const game = games.find((g) => g.id === again.game);
      $("rematch").textContent = game && $("game").value && $("game").value !== again.game
        ? TC.t("Rematch: {game}", {game: game.title}) : TC.t("Rematch");
    }
    $("to-start").hidden = active;
  }

  /* The hall's offer of the next match (GET /api/offer), in a card at the top: while no
     match is in play one tap starts it, naming the offer shown (an offer the hall withdrew
     or replaced meanwhile is refused: nothing starts); while one is, it waits ("next, after
     this match"). An offer the table cannot use is said with the reason. Read with each
     state and every few seconds; drawn again only when it changed. */
  let offer = {offer: null, problem: null, played: null, notice: null};
  let offerShown = "";
  function renderOffer() {
    const o = offer.offer;
    // It waits while a match is in play, and while the match on the table is its own; an
    // offer this table finished a match of is never started again (a second play would
    // not count).
    const active = !!(state.match && (state.match.status === "active"
      || (o && state.match.event && state.match.event.offer === o.offer)));
    const played = !!(o && offer.played !== null && offer.played !== undefined);
    const drawn = JSON.stringify([offer, active]);
    if (drawn === offerShown) return;
    offerShown = drawn;
    const card = $("offer");
    if ($("offer").contains(message)) home.after(message);
    card.hidden = !o && !offer.problem && !offer.notice;
    $("offer-start").hidden = !o || active || played;
    if (o) {
      const e = o.event;
      const who = o.label || o.players.join(" v ");
      const own = !!(state.match && state.match.event && state.match.event.offer === o.offer);
      $("offer-title").textContent = own ? TC.t("This match, from the hall")
        : played ? TC.t("Played here already") : active ? TC.t("Next, after this match") : TC.t("Next match from the hall");
      $("offer-text").textContent = TC.isolate(`${who} · ${TC.t("R{round} · {event}", {round: e.round, event: e.name})}` + (played && !own
        ? " · " + TC.t("its result (match {match}) waits for the hall: it is not played again", {match: offer.played}) : ""));
      $("offer-start").setAttribute("aria-label", TC.t("Start {players}, round {round} of {event}", {players: who, round: e.round, event: e.name}));
      $("offer-start").dataset.offer = o.offer;
    } else if (offer.notice) {
      $("offer-title").textContent = TC.t("From the hall");
      $("offer-text").textContent = TC.isolate(TC.t("The hall says: {notice}", {notice: offer.notice}));
    } else if (offer.problem) {
      $("offer-title").textContent = TC.t("Next match from the hall");
      $("offer-text").textContent = TC.t("The hall's offer could not be used: {problem}", {problem: offer.problem});
    }
  }
  const readOffer = () => fetch("/api/offer", {cache: "no-store"}).then((r) => (r.ok ? r.json() : null))
    .then((body) => { if (body) { offer = body; renderOffer(); } }, () => null);
  $("offer-start").addEventListener("click", () => {
    const id = $("offer-start").dataset.offer;
    begin({offer: id}, $("offer"), "/api/offer/start").then(readOffer);
  });

  /* The start form, from the games' option lists. `keep`: the names typed stay (the game
     menu changed); else they are the rematch's (the form is filled again). */
  function renderStart(keep = false) {
    const game = games.find((g) => g.id === $("game").value) || games[0];
    if (!game) return;
    // A name the host typed (or seated) for the table as it is now stays when the form is
    // filled again for that same state: the rematch's record can arrive after the host
    // began typing (End, then the names). Typed for an earlier state, it gives way.
    // Read when the form is drawn, not when asked: the game's script may load in between,
    // and a name typed meanwhile must not be replaced by the fresh, empty field.
    const names = () => {
      const inputs = [...document.querySelectorAll("#players input")];
      const now = $("start").dataset.premise;
      const mine = (i) => i.dataset.typed !== undefined && i.dataset.typed === now;
      return keep ? inputs.map((i) => i.value.trim())
        : inputs.some(mine) ? inputs.map((i) => (mine(i) ? i.value.trim() : null)) : null;
    };
    TC.need(game.id).then(() => { if ($("game").value === game.id) drawStart(game, names()); }, (err) => say(err.message));
  }

  /** The longest name the table keeps (companion/games/base.py MAX_NAME: it fits the OLED). */
  const MAX_NAME = 16;

  /** Player `i`'s name field, with the note that appears when typing or pasting was cut
   *  at MAX_NAME characters (the field holds no more: the host is told the rest is lost).
   *  A name of exactly MAX_NAME characters, typed or filled in, lost nothing: no note.
   *  The note stays while the name is that long, and goes once it is shorter. */
  function nameField(i, value, required, typed = false) {
    const note = TC.el("span", {class: "hint name-note", id: `name-note-${i}`, "aria-live": "polite"});
    const input = TC.el("input", {name: "player", value, maxlength: MAX_NAME, required,
      "aria-describedby": note.id, autocomplete: "off"});
    let cut = false;
    const show = () => { note.textContent = cut ? TC.t("{count} characters at most: the rest is cut", {count: MAX_NAME}) : ""; };
    // Before the field takes the text: what it would hold without its maxlength. The
    // browser drops what goes past it (typed keys fire no input event then).
    input.addEventListener("beforeinput", (e) => {
      const added = e.data ?? (e.dataTransfer ? e.dataTransfer.getData("text/plain") : "");
      if (!added) return;
      const kept = input.value.length - Math.abs(input.selectionEnd - input.selectionStart);
      if (kept + added.length > MAX_NAME) { cut = true; show(); }
    });
    const shorter = () => { cut = cut && input.value.length >= MAX_NAME; show(); };
    // data-typed: the state (the form's premise) the name was typed for.
    const premise = () => $("start").dataset.premise || "";
    if (typed) input.dataset.typed = premise();
    input.addEventListener("input", () => { input.dataset.typed = premise(); shorter(); });
    return TC.el("label", {class: "player-name"}, TC.t("Player {number}", {number: i + 1}) + " ", input, note);
  }

  function drawStart(game, typed) {
    const current = rematch && rematch.game === game.id ? rematch : null;
    const players = $("players");
    players.replaceChildren();
    for (let i = 0; i < game.seats[1]; i++) {
      const mine = typed && typed[i] != null;  // kept: typed, or the menu changed (keep)
      const name = mine ? typed[i] : current && current.players[i] ? current.players[i] : "";
      players.append(nameField(i, name || (i < game.seats[0] ? TC.t("Player {number}", {number: i + 1}) : ""), i < game.seats[0],
        mine && !!typed[i]));
    }
    players.append(TC.el("p", {class: "hint"}, TC.t("Names: up to {count} characters.", {count: MAX_NAME})));
    const options = $("options");
    options.replaceChildren();
    for (const o of game.options) {
      const select = TC.el("select", {name: o.key});
      const chosen = current && o.key in current.options ? current.options[o.key] : o.default;
      o.choices.forEach((c, i) => select.append(TC.el("option",
        {value: i, selected: JSON.stringify(c.value) === JSON.stringify(chosen)}, c.label)));
      options.append(TC.el("label", {}, `${o.label} `, select));
    }
    // The game's own parts of the form (its host script, TC.hosts), if it has any.
    const own = TC.hosts[game.id];
    collectExtras = own && own.startForm ? own.startForm(options, game, current) : null;
  }

  /* What the game's own parts add to the options sent (TC.hosts[game].startForm). */
  let collectExtras = null;

  $("start").addEventListener("submit", (e) => {
    e.preventDefault();
    const game = games.find((g) => g.id === $("game").value);
    const players = [...document.querySelectorAll("#players input")].map((i) => i.value.trim()).filter(Boolean);
    const options = {};
    for (const o of game.options) options[o.key] = o.choices[Number($("options").querySelector(`[name="${o.key}"]`).value)].value;
    if (collectExtras) collectExtras(options);
    begin({game: game.id, players, options}, e.submitter);
  });

  /** Start the match `record`; once started, the controls are the first thing on the page:
   *  the host is taken to them, not left at the form far below. */
  const begin = (record, near, path = "/api/match") => act(path, record, near).then((started) => {
    if (!started) return;  // refused: the reason is beside the button tapped, in view
    home.after(message);
    $("new-match").open = false;
    window.scrollTo({top: 0});
  });
  // The last match again, as the table's rematch record has it (drawn for the state shown:
  // the tap carries its version, so a table that moved on meanwhile refuses it).
  $("rematch").addEventListener("click", () => {
    if (rematch) begin({game: rematch.game, players: rematch.players, options: rematch.options}, $("match-row"));
  });
  $("to-start").addEventListener("click", () => {
    $("new-match").open = true;
    $("new-match").scrollIntoView({block: "start"});
    $("game").focus({preventScroll: true});
  });
  $("game").addEventListener("change", () => { renderStart(true); renderMatchRow(); });
  // The table tells what an undo took back (the state's `undone`) and a redo put back
  // (`redone`), whoever made it: said in the page's words, as news. This page's own, once
  // its answer has come (the stream may have brought the state before it), unless the
  // table has moved on since (a late answer is old news).
  const told = (s, field) => s && s.match && s[field] ? TC.undoneWords(s[field], s.match.game) : null;
  const sayTaken = (s) => {
    if (!s || key(s) !== key(state)) return;
    const undone = told(s, "undone");
    const redone = told(s, "redone");
    if (undone) say(TC.t("Undone: {what}", {what: undone}), key(s), true);
    else if (redone) say(TC.t("Redone: {what}", {what: redone}), key(s), true);
  };
  $("undo").addEventListener("click", () => act("/api/undo").then(sayTaken));
  $("redo").addEventListener("click", () => act("/api/redo").then(sayTaken));
  $("end").addEventListener("click", () => {
    if (confirm(TC.t("End this match? It stays in the history, without a result."))) act("/api/match/end");
  });
  $("logout").addEventListener("click", () => TC.post("/api/logout")
    .then(() => location.reload(), (err) => say(err.message)));

  /* The New match form is folded away while a match is being played and open when none
     is; each time a match starts, ends or is won it is filled again from the last match
     (its players, options and game). Between those changes it is left as the user set it. */
  let folded = null;  // "<epoch>/<match id>/<status>" the form was last set for
  let rematchFor = null;  // the `folded` the rematch record was read for
  function fold(s) {
    const match = s.match;
    const now = match ? `${s.epoch}/${match.id}/${match.status}` : `${s.epoch}/none`;
    if (now === folded) return;
    const first = folded === null;
    folded = now;
    $("start").dataset.premise = now;
    $("new-match").open = !(match && match.status === "active");
    if (!first && games.length) refill();
  }

  /** Fill the start form for a rematch of the last match: the likely next match. A form
   *  whose game or options the host has chosen since the table's last change is theirs:
   *  the rematch arrives (for the Rematch button) without filling it again. Names typed
   *  alone stay as they are in the refilled form (renderStart). */
  function refill() {
    const asked = folded;
    TC.readJSON("/api/rematch", {cache: "no-store"}).then((record) => {
      if (asked !== folded) return;  // the table moved on meanwhile: its own read follows
      rematch = record;
      rematchFor = asked;
      renderMatchRow();
      if ($("start").dataset.changed === asked) return;
      if (rematch) $("game").value = rematch.game;
      renderStart();
    }, () => { if ($("start").dataset.changed !== asked) renderStart(); });  // busy or offline: no Rematch
  }
  // A game or an option the host chooses marks the form theirs for the table's state it
  // was chosen on (a name typed does not: see renderStart).
  $("start").addEventListener("change", (e) => {
    if (e.target.name !== "player") $("start").dataset.changed = $("start").dataset.premise || "";
  });

  // What the bar covers at the bottom of the screen, and the score header at its top: a
  // control scrolled to sits between them (host.css: scroll-padding).
  new ResizeObserver(() => document.documentElement.style.setProperty("--bar", `${$("bar").offsetHeight}px`))
    .observe($("bar"));
  new ResizeObserver(() => {
    document.documentElement.style.setProperty("--head", `${$("scoreline").offsetHeight}px`);
    TC.tellApart($("scoreline"));
  }).observe($("scoreline"));

  /** The table is back (the stream reconnected): the message about an unanswered tap goes,
   *  and the state is read again; a tap whose fate was unknown is told from it. */
  const back = (online) => {
    if (!online || !unanswered) return;
    const tap = unanswered;
    unanswered = null;
    if (tap.sure) { say(""); stream.resync(); return; }
    fetch("/api/state", {cache: "no-store"}).then((r) => r.json()).then((s) => {
      stream.show(s);
      const same = s.epoch === tap.epoch && s.version === tap.version;
      say(same ? TC.t("Your tap was not recorded: the table is as it was before it.")
        : TC.t("The table changed around your tap: the board shows what was recorded."), key(s));
    }, () => { unanswered = tap; });  // away again: told when it is back
  };

  /* The games the start form offers: asked for once logged in, and again with each state
     until they come (a busy or absent table is said, and the form waits for them). */
  let askingGames = false;
  const readGames = () => {
    if (games.length || askingGames) return;
    askingGames = true;
    TC.readJSON("/api/games").then((list) => {
      games = list;
      $("game").replaceChildren(...games.map((g) => TC.el("option", {value: g.id}, g.title)));
      refill();
    }, (err) => { if (err.status) say(err.message); })  // no answer: the stream says so
      .finally(() => { askingGames = false; });
  };

  // The language picker: under the login form until the host is in (a host can read the
  // form in their language), then in its place above the New match form.
  const picker = document.querySelector("footer.language");
  $("login").after(picker);
  let stream = null;
  TC.login($("login"), () => {
    $("logout").before(picker);
    $("host").hidden = false;
    say("");
    if (stream) { stream.resync(); return; }  // logged in again: the page already follows
    setInterval(readOffer, 3000);
    let opened = true;  // the state the page opened on: its undo, if any, is old news
    stream = TC.follow((s) => {
      state = s;
      readGames();
      fold(s);
      renderOffer();
      readOffer();
      if (about !== null && about !== key(s)) say("");
      // The panel's or another phone's undo or redo: said in the bar, by Undo.
      if (!opened && (s.undone || s.redone) && !$("bar").contains(message)) $("bar").prepend(message);
      if (!opened) sayTaken(s);
      opened = false;
      TC.scoreHeader($("scoreline"), s);
      TC.renderBoard($("board"), s);
      // Controls of a game whose scripts are still on their way: drawn once they are here.
      TC.need(s.match && s.match.game).then(() => { if (state === s) renderActions(); }, (err) => say(err.message));
    }, back);
  }, () => { $("host").hidden = true; $("login").after(picker); });
})();

/* The start form's player suggestions (issue 26): every known player's name offered in
   each name field (a datalist, most recently played first), and for the chosen game the
   fairest pairing on the leaderboard: the two players whose ratings are closest, one tap
   to seat them. It only watches the form built above, and asks for the players only once
   the New match form is opened (no request on the page's load). */
(function () {
  const names = document.getElementById("player-names");
  const fields = document.getElementById("players");
  const gameBox = document.getElementById("game");
  const fair = document.getElementById("fair");
  let known = null;

  const offer = () => {
    for (const input of fields.querySelectorAll("input")) input.setAttribute("list", "player-names");
  };
  /** The adjacent pair of the leaderboard with the smallest gap, settled ratings first. */
  const closest = (rows) => {
    let best = null;
    for (const settled of [true, false]) {
      const pool = rows.filter((r) => !settled || !r.provisional);
      for (let i = 1; i < pool.length; i++) {
        const gap = Math.abs(pool[i - 1].rating - pool[i].rating);
        if (!best || gap < best.gap) best = {a: pool[i - 1], b: pool[i], gap};
      }
      if (best) return best;
    }
    return null;
  };
  const suggest = () => {
    offer();
    const board = known && known.games.find((g) => g.game === gameBox.value);
    const pair = board && closest(board.players);
    fair.hidden = !pair;
    if (!pair) return;
    const seat = TC.el("button", {type: "button", class: "quiet"}, TC.t("Seat them"));
    seat.addEventListener("click", () => {
      const inputs = fields.querySelectorAll("input");
      if (inputs.length >= 2) {
        [inputs[0].value, inputs[1].value] = [pair.a.name, pair.b.name];
        inputs[0].dataset.typed = inputs[1].dataset.typed = document.getElementById("start").dataset.premise || "";
      }
    });
    fair.replaceChildren(TC.t("Fair pairing: {first} v {second}", {
      first: `${pair.a.name} (${TC.number(pair.a.rating)})`, second: `${pair.b.name} (${TC.number(pair.b.rating)})`}) + " ", seat);
  };
  const form = document.getElementById("new-match");
  const load = () => {
    if (!form.open) return;
    TC.read("/api/players").then((r) => (r.ok ? r.json() : null)).then((body) => {
      if (!body) return;
      known = body;
      names.replaceChildren(...body.names.map((n) => TC.el("option", {value: n})));
      suggest();
    }).catch(() => null);
  };
  form.addEventListener("toggle", load);
  load();
  new MutationObserver(suggest).observe(fields, {childList: true});
  gameBox.addEventListener("change", suggest);
})();

