/* The director's page: log in, create an event, check players in, start rounds, move a
   game, enter or correct a result. Every change names the event's version it was made on;
   a refusal is shown in words and the page shows the event as it is now. */
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  let csrf = null;
  let event = null;
  let cards = {};

  const session = () => fetch("/api/director/session", {cache: "no-store"}).then((r) => r.json());
  const post = (path, body) => fetch(path, {method: "POST", body: JSON.stringify(body),
    headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf || ""}})
    .then((r) => r.json().catch(() => ({})).then((d) => {
      if (r.status === 403) { session().then((s) => { if (!s.director) loggedOut(d.error); }); }
      if (!r.ok) throw new Error(d.error || r.statusText);
      return d;
    }));
  const say = (text) => { $("problem").textContent = text || ""; };
  const change = (path, body, game = null) => {
    say("");
    return post(path, {...body, version: event.version}).then((state) => {
      // Sent: that game's fields are the event's now, not the director's typing.
      for (const el of document.querySelectorAll(`#games .dgame[data-id="${game}"] [data-touched]`)) delete el.dataset.touched;
      show(state);
    }).catch((err) => { say(err.message); refresh(); });
  };

  const loggedOut = (why) => {
    csrf = null;
    $("desk").hidden = true;
    $("login").hidden = false;
    $("login").querySelector(".error").textContent = why || "";
  };
  const loggedIn = (token) => {
    csrf = token;
    $("login").hidden = true;
    $("desk").hidden = false;
    fillChoices();
    refresh();
  };

  $("login").addEventListener("submit", (e) => {
    e.preventDefault();
    const form = $("login");
    fetch("/api/director/login", {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({pin: form.pin.value})})
      .then((r) => r.json().then((d) => { if (!r.ok) throw new Error(d.error); form.pin.value = ""; loggedIn(d.csrf); }))
      .catch((err) => { form.querySelector(".error").textContent = err.message; });
  });
  $("logout").addEventListener("click", () => post("/api/director/logout", {}).finally(() => loggedOut("")));

  /** The club's players and the tables the hall sees, as ticks on the new event's form. */
  const fillChoices = () => {
    fetch("/api/players").then((r) => (r.ok ? r.json() : {names: []})).then((d) => {
      const box = $("club-players");
      box.replaceChildren(box.querySelector("legend"), ...d.names.map((n, i) => TC.el("label", {class: "check"},
        TC.el("input", {type: "checkbox", name: "club", value: n, id: `club-${i}`}), n)));
      box.hidden = !d.names.length;
    }).catch(() => {});
    NIGHT.cards().then((c) => {
      const box = $("known-tables");
      box.replaceChildren(box.querySelector("legend"), ...Object.values(c).map((card, i) => TC.el("label", {class: "check"},
        TC.el("input", {type: "checkbox", name: "table", value: card.id, id: `table-${i}`, checked: true}), card.name || card.id)));
      box.hidden = !Object.keys(c).length;
    }).catch(() => {});
  };

  /** Only the lineups the chosen game can be played as (its kit's, carried on its option);
      one no longer offered goes back to what the game's options say. */
  const offerLineups = () => {
    const allowed = ($("game").selectedOptions[0]?.dataset.lineups || "").split(" ");
    for (const option of $("lineup").options) {
      if (option.value) option.disabled = option.hidden = !allowed.includes(option.value);
    }
    if ($("lineup").selectedOptions[0]?.disabled) $("lineup").value = "";
    offerOptions();
  };

  /** The chosen game's options as fields built from its kit (GET-free: carried on its
      option): a menu per option, and per seat of the lineup chosen what the game takes one
      of per player (characters), each a different one at first. Nothing typed as JSON. */
  const form = () => JSON.parse($("game").selectedOptions[0]?.dataset.form || "{}");
  const offerOptions = () => {
    const spec = form();
    const box = $("options");
    const field = (o, id, text, value) => {
      const select = TC.el("select", {id, "data-key": o.key},
        ...o.choices.map((c, i) => TC.el("option", {value: String(i)}, c.label)));
      const at = o.choices.findIndex((c) => JSON.stringify(c.value) === JSON.stringify(value));
      select.value = String(at >= 0 ? at : 0);
      return TC.el("div", {class: "field"}, TC.el("label", {for: id}, text), select);
    };
    const seats = (spec.seats || {})[$("lineup").value || Object.keys(spec.seats || {})[0]]
      || (spec.seats ? Math.max(...Object.values(spec.seats)) : 0);
    const perSeat = (spec.per_seat || []).flatMap((o) => Array.from({length: spec.per_seat.length ? seats : 0},
      (_, i) => field(o, `opt-${o.key}-${i}`, TC.t("Seat {n}: {option}", {n: i + 1, option: o.label}), o.choices[i % o.choices.length].value)));
    box.replaceChildren(box.querySelector("legend"),
      ...(spec.options || []).map((o) => field(o, `opt-${o.key}`, o.label, o.default)), ...perSeat);
  };
  /** The options the fields say, as the event's options. */
  const chosenOptions = () => {
    const spec = form();
    const out = {};
    for (const o of spec.options || []) {
      const i = Number($(`opt-${o.key}`).value);
      if (JSON.stringify(o.choices[i].value) !== JSON.stringify(o.default)) out[o.key] = o.choices[i].value;
    }
    for (const o of spec.per_seat || []) {
      out[o.key] = [...$("options").querySelectorAll(`select[data-key="${o.key}"]`)]
        .map((sel) => o.choices[Number(sel.value)].value);
    }
    return out;
  };
  $("game").addEventListener("change", offerLineups);
  $("lineup").addEventListener("change", offerOptions);
  offerLineups();

  $("create").addEventListener("submit", (e) => {
    e.preventDefault();
    const f = $("create");
    const fail = f.querySelector(".error");
    fail.textContent = "";
    const options = chosenOptions();
    const ticked = (name) => [...f.querySelectorAll(`input[name=${name}]:checked`)].map((i) => i.value);
    const players = [...ticked("club"), ...$("names").value.split("\n").map((n) => n.trim()).filter(Boolean)];
    const tables = [...new Set([...ticked("table"), ...$("tables").value.split(/[\s,]+/).filter(Boolean)])];
    const body = {name: $("name").value, game: $("game").value, format: $("format").value, options, players, tables};
    if ($("lineup").value) body.lineup = $("lineup").value;
    if ($("format").value === "swiss") body.rounds = Number($("rounds").value);
    post("/api/events", body).then((state) => { f.reset(); offerLineups(); history.replaceState(null, "", `?event=${state.id}`); show(state); fillChoices(); })
      .catch((err) => { fail.textContent = err.message; });
  });

  $("start").addEventListener("click", () => change(`/api/events/${event.id}/rounds`, {}));
  $("late").addEventListener("submit", (e) => {
    e.preventDefault();
    const name = $("late-name").value.trim();
    if (!name) { say(TC.t("Type the late arrival's name")); return; }
    const points = Number($("late-points").value || 0);
    change(`/api/events/${event.id}/players`, {players: [points ? {name, start_points: points} : name]})
      .then(() => { $("late-name").value = ""; $("late-points").value = "0"; });
  });

  // Where a game is played: a bye, its table's name, or no table yet.
  const where = (g) => {
    if (g.bye) return TC.t("Bye");
    return g.table ? NIGHT.tableName(cards, g.table) : TC.t("No table");
  };
  const gameItem = (g) => {
    const path = `/api/events/${event.id}/pairings/${g.id}`;
    const label = NIGHT.label(g);
    const li = TC.el("li", {class: "dgame", "data-id": g.id},
      TC.el("p", {class: "who"}, TC.t("{table}: {game}", {table: where(g), game: label})),
      TC.el("p", {class: "line"}, NIGHT.gameLine(g, cards)),
      TC.el("p", {class: "why hint", hidden: true}));
    if (g.bye) return li;
    const why = li.querySelector(".why");
    const tools = TC.el("div", {class: "row"},
      TC.el("button", {type: "button", class: "quiet", onclick: () => fetch(path).then((r) => r.json())
        .then((d) => { why.textContent = d.why; why.hidden = false; })}, TC.t("Why this pairing?")));
    if (g.status !== "done") {
      // A game its table has started moves only once the director says its match there is
      // abandoned (that table is told); one not started moves with the select alone.
      const playing = g.status === "playing";
      const gone = TC.el("input", {type: "checkbox", id: `abandon-${g.id}`, class: "abandon"});
      const to = TC.el("select", {"aria-label": TC.t("Move {game} to", {game: label}), disabled: playing},
        TC.el("option", {value: ""}, TC.t("Move to…")),
        ...event.tables.filter((t) => t !== g.table).map((t) => TC.el("option", {value: t}, NIGHT.tableName(cards, t))),
        TC.el("option", {value: "-"}, TC.t("a table without a companion")));
      gone.addEventListener("change", () => { to.disabled = !gone.checked; });
      to.addEventListener("change", () => {
        if (to.value) change(`${path}/move`, {table: to.value === "-" ? null : to.value, ...(playing ? {abandoned: true} : {})});
      });
      if (playing) {
        tools.append(TC.el("label", {class: "check", for: gone.id}, gone,
          TC.t("Its match at {table} is abandoned (to move it)", {table: NIGHT.tableName(cards, g.table)})));
      }
      tools.append(to);
    }
    // Who won, as ranks for every player: a team's players share their side's (doubles,
    // Canadian); at a table of 3-4 (every player for themselves) each player's place is typed in.
    const sided = g.sides && g.sides.length;
    const places = !sided && g.players.length > 2 ? g.players.map((name, i) => TC.el("input", {type: "number",
      min: 1, max: g.players.length, step: 1, class: "place", "aria-label": TC.t("{name}'s place in {game}", {name, game: label}),
      "data-field": `place-${i}`, value: g.result ? String(g.result.ranks[i]) : ""})) : [];
    const won = sided ? NIGHT.teams(g).map((team) => [team.join(" & "),
      g.players.map((n) => (team.includes(n) ? 1 : 2)).join(",")])
      : [[g.players[0], "1,2"], [g.players[1], "2,1"]];
    const outcome = TC.el("select", {"aria-label": TC.t("Result of {game}", {game: label}), hidden: places.length > 0, "data-field": "outcome"},
      TC.el("option", {value: ""}, g.result ? TC.t("Correct the result…") : TC.t("Enter the result…")),
      ...won.map(([who, ranks]) => TC.el("option", {value: ranks}, TC.t("{names} won", {names: who}))),
      ...(event.format === "elimination" ? [] : [TC.el("option", {value: g.players.map(() => 1).join(",")}, TC.t("Draw"))]));
    const reason = TC.el("input", {id: `reason-${g.id}`, "aria-label": TC.t("Why the result of {game} is corrected", {game: label}),
      maxlength: 200, "data-field": "reason"});
    // The game's own tiebreak (docs/club-night.md): optional, one number per player, each
    // field labelled with its player (a filled one still says whose it is).
    const given = g.result ? g.result.tiebreaks : [];
    const breaks = g.players.map((name, i) => TC.el("input", {type: "number", step: "any",
      class: "tiebreak", id: `tb-${g.id}-${i}`, "aria-label": TC.t("{name}'s game tiebreak in {game}", {name, game: label}),
      "data-field": `tiebreak-${i}`, value: given.length ? String(given[i]) : ""}));
    const save = TC.el("button", {type: "button"}, g.result ? TC.t("Correct") : TC.t("Save result"));
    save.addEventListener("click", () => {
      if (places.length && places.some((p) => !p.value.trim())) { say(TC.t("Give every player of {game} a place", {game: label})); return; }
      if (!places.length && !outcome.value) { say(TC.t("Choose how {game} ended first", {game: label})); return; }
      const ranks = places.length ? places.map((p) => Number(p.value)) : outcome.value.split(",").map(Number);
      const body = {ranks, reason: reason.value};
      const filled = breaks.filter((b) => b.value.trim() !== "");
      if (filled.length && filled.length !== breaks.length) {
        say(TC.t("Give every player of {game} a game tiebreak, or none", {game: label})); return;
      }
      if (filled.length) body.tiebreaks = breaks.map((b) => Number(b.value));
      change(`${path}/result`, body, g.id);
    });
    tools.append(outcome, ...places.map((input, i) => TC.el("label", {class: "place-of"}, TC.t("{name}: place", {name: g.players[i]}), " ", input)),
      ...breaks.map((input, i) => TC.el("label", {class: "tiebreak-of", for: input.id}, TC.t("{name}: game tiebreak", {name: g.players[i]}), " ", input)),
      ...(g.result ? [TC.el("label", {class: "reason-of", for: reason.id}, TC.t("Reason for the correction"), " ", reason)] : []),
      save);
    li.append(tools);
    return li;
  };

  /** A table's new result held for the director: what changed and why it waits, and the
   *  choices (apply; apply and pair the next round again; keep what counts now). */
  const heldItem = (h) => {
    const path = `/api/events/${event.id}/pairings/${h.pairing}/revision`;
    const text = h.table ? h.text.replace(h.table + ":", NIGHT.tableName(cards, h.table) + ":") : h.text;
    const buttons = [];
    if (h.can_apply) buttons.push(TC.el("button", {type: "button", onclick: () => change(path, {choice: "apply"})}, TC.t("Apply it")));
    if (h.can_repair) {
      buttons.push(TC.el("button", {type: "button", onclick: () => change(path, {choice: "repair"})},
        TC.t("Apply it and pair round {round} again", {round: h.next_round})));
    }
    buttons.push(TC.el("button", {type: "button", class: "quiet", onclick: () => change(path, {choice: "keep"})}, TC.t("Keep the result as it counts")));
    return TC.el("li", {class: "dheld"}, TC.el("p", {}, text),
      ...(h.apply_problem ? [TC.el("p", {class: "hint"}, h.apply_problem)] : []),
      TC.el("div", {class: "row"}, ...buttons));
  };

  /** What the director typed or chose in the games' forms, by game and field. */
  const typed = () => {
    const out = {};
    for (const el of document.querySelectorAll("#games [data-field]")) {
      const id = el.closest(".dgame").dataset.id;
      if (el.dataset.touched) out[`${id}|${el.dataset.field}`] = el.value;
    }
    return out;
  };

  const show = (state) => {
    // Another table's result, or any change, draws the event again: what the director was
    // typing is kept (merged into the new drawing), never wiped, and so is the focus.
    const kept = typed();
    const at = document.activeElement;
    const focus = at && at.dataset && at.dataset.field && at.closest(".dgame")
      ? `${at.closest(".dgame").dataset.id}|${at.dataset.field}` : null;
    event = state;
    $("current").hidden = false;
    $("event-title").textContent = state.name;
    const won = state.winner ? TC.t("winner: {name}", {name: state.winner}) : "";
    $("event-sub").textContent = [state.game_title, NIGHT.roundLine(state), won].filter(Boolean).join(" · ");
    $("start").textContent = state.finished ? TC.t("Finished") : state.last_round ? TC.t("Finish the event")
      : TC.t("Start round {round}", {round: state.round + 1});
    $("start").disabled = !state.can_start;
    $("start-why").textContent = state.start_problem || "";
    $("held").replaceChildren(...(state.held.length ? [TC.el("h3", {}, TC.t("New results waiting for you")),
      TC.el("ul", {class: "dgames"}, state.held.map(heldItem))] : []));
    // Doubles: the teams formed at the start, each with its rating total (the why of a game).
    $("teams").hidden = !state.teams.length;
    $("teams").textContent = state.teams.length ? TC.t("Teams: {teams}", {teams: state.teams.map((t) => t.join(" & ")).join(" · ")}) : "";
    $("games").replaceChildren(...state.pairings.map(gameItem));
    for (const el of document.querySelectorAll("#games [data-field]")) {
      const key = `${el.closest(".dgame").dataset.id}|${el.dataset.field}`;
      if (key in kept) { el.value = kept[key]; el.dataset.touched = "1"; }
      if (key === focus) el.focus();
    }
    $("players").replaceChildren(...state.players.map((p) => {
      const li = TC.el("li", {class: p.present ? "" : "left"}, p.present ? p.name : TC.t("{name} (left)", {name: p.name}));
      if (p.present && !state.finished) {
        li.append(" ", TC.el("button", {type: "button", class: "quiet", "aria-label": TC.t("{name} leaves", {name: p.name}),
          onclick: () => change(`/api/events/${state.id}/drop`, {name: p.name})}, TC.t("Leaves")));
      }
      return li;
    }));
    $("late").hidden = state.finished || (state.round > 0 && (state.format !== "swiss" || state.lineup === "doubles"));
    $("fixes").replaceChildren(...(state.corrections.length ? [TC.el("h3", {}, TC.t("Corrections")),
      TC.el("ul", {}, state.corrections.map((c) => TC.el("li", {}, TC.t("Round {round}, {players}: {reason}", {round: c.round, players: c.players.join(" v "), reason: c.reason})
        // Whether the table that played it shows it in its own history yet.
        + (!c.at_table ? "" : c.at_table.taken ? " " + TC.t("(in {table}'s history)", {table: c.at_table.table})
          : c.at_table.gone ? " " + TC.t("({table} has a new database: not in its history)", {table: c.at_table.table})
          : " " + TC.t("(sent to {table}: not in its history yet)", {table: c.at_table.table})))))] : []));
    $("notes").replaceChildren(...(state.notes.length ? [TC.el("h3", {}, TC.t("From the tables")),
      TC.el("ul", {}, state.notes.slice().reverse().map((n) => TC.el("li", {}, `${NIGHT.clock(n.at)} ${n.text}`)))] : []));
    $("print").href = `/night/standings?event=${state.id}`;
    $("csv").href = `/api/events/${state.id}/standings.csv`;
  };
  // A field the director changed is theirs until the change is sent.
  $("games").addEventListener("input", (e) => { if (e.target.dataset.field) e.target.dataset.touched = "1"; });
  $("games").addEventListener("change", (e) => { if (e.target.dataset.field) e.target.dataset.touched = "1"; });

  /** The event as it is now. Drawn again only when it changed (its version), keeping what
   *  the director is typing; the live lines follow the tables' scores. A change sent from
   *  a form drawn before another change carries its version and is refused: said. */
  const refresh = () => NIGHT.eventId().then((id) => (id === null ? null : Promise.all([NIGHT.event(id), NIGHT.cards().catch(() => ({}))])))
    .then((got) => {
      if (!got) return;
      cards = got[1];
      const link = NIGHT.linkProblem();
      $("link").hidden = !link;
      $("link").textContent = link;
      if (!event || got[0].id !== event.id || got[0].version !== event.version) {
        show(got[0]);
        return;
      }
      for (const g of event.pairings) {
        const line = document.querySelector(`#games .dgame[data-id="${g.id}"] .line`);
        if (line) line.textContent = NIGHT.gameLine(g, cards);
      }
    }).catch(() => {});

  session().then((s) => (s.director ? loggedIn(s.csrf) : loggedOut("")));
  // The tables report results by themselves: the page follows, unless a form is being filled.
  setInterval(() => { if (csrf) refresh(); }, 3000);
})();
