"use strict";
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
  const say = (text, of) => { message.textContent = text; about = text ? of || key(state) : null; };
  const STALE = "Someone else changed the table just before your tap: nothing was recorded. " +
    "Here is the table now.";

  /* Every change carries its own Idempotency-Key and the version it was made on. While
     the table is busy (503) or no answer came (the Wi-Fi dropped it), it is sent again
     with the same key: the table applies it at most once and answers a retry with the
     first outcome. */
  const RETRIES = 8;
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
    const attempt = (left) => TC.post(path, body, {key: idempotency, version}).catch((err) => {
      if (left > 0 && (err.status === 503 || err.status === undefined)) {
        say("The table is busy; trying again…");
        return new Promise((resolve) => setTimeout(resolve, 1000)).then(() => attempt(left - 1));
      }
      throw err;
    });
    return attempt(RETRIES).then((s) => { say(""); stream.show(s); return s; })
      .catch((err) => {
        // Wherever it is said, the user sees it: the page scrolls as little as it can.
        requestAnimationFrame(() => message.scrollIntoView({block: "nearest"}));
        if (err.status !== 409) { say(err.message); return null; }
        // Refused by the rules or because the table moved on: show the table as it is now,
        // the reason beside it (a stale tap's in plain words; the API's names versions).
        say(err.stale ? STALE : err.message, key({epoch: state.epoch, version: err.stale ? err.version : version}));
        stream.resync();
        return null;
      });
  };

  /* Buttons for every action the rules allow now, built from the state's "legal". */
  const describe = {
    serve: (v, card) => `Serve ${card}`,
    return: (v, card) => {
      const count = 1 + Math.abs(card - v.volley);
      return `Return ${Array(count).fill(card).join("-")}`;
    },
    point: (v, winner) => `Point ${v.players[winner]}`,
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
    $("end").hidden = !(match && match.status === "active");
    $("bar").hidden = !match;  // nothing to undo on an empty table
    // The table version the controls are drawn for (what a tap's premise will be).
    box.dataset.version = state.version;
    if (!match) return;
    (controls[match.game] || genericControls)(box, match);
    // The actions used most (a game marks them data-bar) go to the bar at the bottom of
    // the screen, in reach of the thumb however long the controls above them are.
    quick.append(...box.querySelectorAll("[data-bar]"));
    for (const empty of box.querySelectorAll(".row:empty")) empty.remove();
  }

  /* One row of buttons per legal shape with a single list field (Center Court). */
  function genericControls(box, match) {
    const v = match.view;
    for (const shape of match.legal) {
      const field = Object.keys(shape).find((k) => Array.isArray(shape[k]));
      const row = TC.el("div", {class: "row", "data-action": shape.type, "data-bar": shape.type === "point" ? "" : null});
      for (const value of field ? shape[field] : [null]) {
        const label = (describe[shape.type] || ((_, x) => `${shape.type} ${x ?? ""}`))(v, value);
        row.append(TC.el("button", {type: "button", onclick: () => {
          const body = field ? {type: shape.type, [field]: value} : {type: shape.type};
          const roll = $("roll");
          if (shape.type === "serve" && roll && roll.value && ![3, 4].includes(value)) {
            body.roll = Number(roll.value);
          }
          act("/api/action", body, row);
        }}, label));
      }
      box.append(row);
      if (shape.type === "serve" && match.game === "center-court") {
        box.append(TC.el("label", {class: "row"}, "Service Die: ",
          TC.el("select", {id: "roll"},
            TC.el("option", {value: ""}, "the device rolls"),
            [1, 2, 5, 6].map((f) => TC.el("option", {value: f}, `we rolled ${f}`)))));
      }
    }
  }

  const controls = {};
  controls.alakaslam = (box, match) => TC.slam.controls(box, match, (body) => act("/api/action", body));
  controls.alakazoo = (box, match) => TC.zoo.controls(box, match, (body, near) => act("/api/action", body, near));
  // Each menu is named for screen readers by what it picks (`aria`).
  const select = (name, values, label, aria) => TC.el("select", {name, "aria-label": aria},
    values.map((x) => TC.el("option", {value: JSON.stringify(x)}, label ? label(x) : String(x))));
  const value = (el) => JSON.parse(el.value);
  const button = (text, onclick) => TC.el("button", {type: "button", onclick}, text);

  /* Wizard Dodgeball: every action for the active wizard, from the legal shapes. */
  controls["wizard-dodgeball"] = function (box, match) {
    const v = match.view;
    const shape = (type, dispel) => match.legal.find((s) => s.type === type && !!s.effect === !!dispel);
    // legal splits a kind's shape where one field's values depend on another (holding a
    // ball per target, a Dispel's spells per wearer, a cast's reach per spell): a shape
    // fits an action when each value is among its own (for targets: a subset, as many as
    // min_targets..max_targets), and a control gathers its choices over the fitting ones.
    const fits = (s, fixed) => Object.entries(fixed).every(([k, x]) => {
      const o = s[k];
      if (k === "targets" && Array.isArray(o)) {
        return x.every((j) => o.includes(j)) && x.length >= (s.min_targets ?? 0) &&
          x.length <= (s.max_targets ?? o.length);
      }
      return Array.isArray(o) ? o.includes(x) : o === x;
    });
    const shapes = (type, fixed = {}) => match.legal.filter((s) => s.type === type && fits(s, fixed));
    const offered = (type, key, fixed = {}) => [...new Set(shapes(type, fixed).flatMap((s) => s[key] || []))];
    const who = (j) => {
      const w = v.sides.flatMap((s) => s.wizards).find((x) => x.jersey === j);
      return `#${j}${w && w.name ? " " + w.name : ""}`;
    };
    if (!shape("end_activation")) return;  // the match is over: nothing is offered
    const me = v.active.jersey;
    box.append(TC.el("button", {type: "button", class: "primary", "data-bar": "",
      onclick: () => act("/api/action", {type: "end_activation"})}, `End #${me}'s activation`));
    // Which ball was thrown, when a Fireball is about: offered as legal orders it (the
    // likelier first); a loose one only the host can say.
    const fireball = (s) => (s.fireball ? select("fireball", s.fireball,
      (f) => (f ? "the Fireball" : "another ball"), "Which ball") : null);
    const withBall = (menu) => (menu ? {fireball: value(menu)} : {});
    const throwing = shape("throw");
    if (throwing) {
      const target = select("target", offered("throw", "target"), who, "Target");
      const range = select("range", [1, 2, 3], (z) => `${z} zone${z > 1 ? "s" : ""} away`, "Range");
      const ball = TC.el("input", {type: "checkbox", name: "holding"});
      // A target with Butter Fingers cannot be holding a ball: legal offers it false only.
      const canHold = () => offered("throw", "target_holding_ball", {target: value(target)}).includes(true);
      const holdable = () => { ball.disabled = !canHold(); if (ball.disabled) ball.checked = false; };
      target.addEventListener("change", holdable);
      holdable();
      const which = fireball(throwing);
      const body = () => ({thrower: me, target: value(target), ...withBall(which)});
      box.append(TC.el("fieldset", {"data-action": "throw"}, TC.el("legend", {}, `#${me} throws`),
        target, range, TC.el("label", {}, ball, " target holds a ball"), which,
        button("Roll the throw", () => act("/api/action", {type: "throw", ...body(),
          range: value(range), target_holding_ball: ball.checked})),
        button("Hit (we rolled)", () => act("/api/action", {type: "hit", ...body()}))));
    }
    const catching = shape("catch");
    if (catching) {
      const catcher = select("catcher", catching.catcher, who, "Catcher");
      const back = select("returning", catching.returning, (j) => j === null ? "nobody comes back" : `${who(j)} comes back`, "Who comes back");
      // Beside a Fireball the thrower threw another ball (a Fireball is not caught).
      const other = catching.fireball ? {fireball: catching.fireball[0]} : {};
      box.append(TC.el("fieldset", {"data-action": "catch"}, TC.el("legend", {}, `#${me}'s ball caught`),
        catcher, back, button("Caught", () => act("/api/action", {type: "catch", thrower: me,
          catcher: value(catcher), returning: value(back), ...other}))));
    }
    // The spells cast from this menu, in card order (Dispel has its own).
    const order = Object.keys(v.sides[v.active.side].spells);
    const spells = offered("cast", "spell").filter((x) => x !== "dispel")
      .sort((a, b) => order.indexOf(a) - order.indexOf(b));
    if (spells.length) {
      const spell = select("spell", spells, TC.spellName, "Spell");
      const ticks = offered("cast", "targets").map((j) => TC.el("label", {},
        TC.el("input", {type: "checkbox", value: j}), ` ${who(j)}`));
      const boxes = ticks.map((l) => l.firstChild);
      const targets = () => boxes.filter((c) => c.checked).map((c) => Number(c.value));
      const rolls = button("Device rolls", () => cast("cast_roll", targets()));
      const took = button("It took effect", () => cast("cast", targets()));
      const none = button("No effect", () => cast("cast", []));
      // Only the wizards the spell's shape lists, as many as its max_targets (the caster's
      // Magic, itself included; Fireball and Teleport one): once full the others are not
      // offered. A button is offered only for what legal offers (no roll naming nobody, no
      // Fireball on no ball).
      const refresh = () => {
        const own = shapes("cast", {spell: value(spell)})[0];
        const full = targets().length >= (own.max_targets ?? Infinity);
        for (const c of boxes) {
          c.disabled = !own.targets.includes(Number(c.value)) || (full && !c.checked);
          if (c.disabled) c.checked = false;
        }
        const picked = {spell: value(spell), targets: targets()};
        rolls.disabled = !shapes("cast_roll", picked).length;
        took.disabled = !shapes("cast", picked).length;
        none.disabled = !shapes("cast", {spell: value(spell), targets: []}).length;
      };
      for (const c of boxes) c.addEventListener("change", refresh);
      spell.addEventListener("change", () => { for (const c of boxes) c.checked = false; refresh(); });
      const magic = v.sides.flatMap((s) => s.wizards).find((x) => x.jersey === me).magic;
      const reach = magic === null || magic === undefined ? null : TC.el("p", {class: "hint"},
        `Magic ${magic}: up to ${magic} wizard${magic === 1 ? "" : "s"}, #${me} counted if named`);
      const cast = (type, affected) => act("/api/action", {type, caster: me, spell: value(spell), targets: affected});
      box.append(TC.el("fieldset", {"data-action": "cast"}, TC.el("legend", {}, `#${me} casts`),
        spell, TC.el("div", {class: "row"}, ticks), reach,
        shape("cast_roll") ? rolls : null, took, none));
      refresh();
    }
    const dispel = shape("dispel");
    if (dispel) {
      const target = select("target", offered("dispel", "target"), who, "Wizard to dispel");
      const effect = TC.el("select", {name: "effect", "aria-label": "Spell to dispel"});
      const rolls = button("Device rolls", () => act("/api/action", {type: "cast_roll", caster: me, spell: "dispel",
        targets: [value(target)], effect: value(effect)}));
      // Each wearer's own effects, as legal offers them for it.
      const check = () => {
        rolls.disabled = !shapes("cast_roll", {spell: "dispel", targets: [value(target)],
          effect: value(effect)}).length;
      };
      const fill = () => {
        effect.replaceChildren(...offered("dispel", "spell", {target: value(target)})
          .map((e) => TC.el("option", {value: JSON.stringify(e)}, TC.spellName(e))));
        check();
      };
      target.addEventListener("change", fill);
      effect.addEventListener("change", check);
      fill();
      const failed = shapes("cast", {spell: "dispel", targets: []}).length ?
        button("It failed", () => act("/api/action", {type: "cast", caster: me, spell: "dispel", targets: []})) : null;
      box.append(TC.el("fieldset", {"data-action": "dispel"}, TC.el("legend", {}, `#${me} dispels`),
        target, effect, rolls,
        button("It worked", () => act("/api/action", {type: "dispel", caster: me,
          target: value(target), spell: value(effect)})),
        failed));
    }
    const passing = shape("pass");
    if (passing) {
      const to = select("to", passing.to, who, "Pass to");
      const which = fireball(passing);
      box.append(TC.el("fieldset", {"data-action": "pass"}, TC.el("legend", {}, `#${me} passes`),
        to, which, button("Pass", () => act("/api/action", {type: "pass", thrower: me, to: value(to), ...withBall(which)}))));
    }
  };

  /* The start form, from the games' option lists. */
  function renderStart() {
    const game = games.find((g) => g.id === $("game").value) || games[0];
    if (!game) return;
    TC.need(game.id).then(() => { if ($("game").value === game.id) drawStart(game); }, (err) => say(err.message));
  }

  function drawStart(game) {
    const current = rematch && rematch.game === game.id ? rematch : null;
    const players = $("players");
    players.replaceChildren();
    for (let i = 0; i < game.seats[1]; i++) {
      const name = current && current.players[i] ? current.players[i] : (i < game.seats[0] ? `Player ${i + 1}` : "");
      players.append(TC.el("label", {}, `Player ${i + 1} `,
        TC.el("input", {name: "player", value: name, maxlength: 16, required: i < game.seats[0]})));
    }
    const options = $("options");
    options.replaceChildren();
    for (const o of game.options) {
      const select = TC.el("select", {name: o.key});
      const chosen = current && o.key in current.options ? current.options[o.key] : o.default;
      o.choices.forEach((c, i) => select.append(TC.el("option",
        {value: i, selected: JSON.stringify(c.value) === JSON.stringify(chosen)}, c.label)));
      options.append(TC.el("label", {}, `${o.label} `, select));
    }
    const extra = startExtras[game.id];
    collectExtras = extra ? extra(options, game, current) : null;
  }

  /* Game-specific parts of the start form; each returns a function adding to the options. */
  let collectExtras = null;
  const startExtras = {};

  // A game's host script arrives with its board's (TC.need): look its parts up when used.
  startExtras.alakaslam = (...args) => TC.slam.startForm(...args);
  startExtras.alakazoo = (...args) => TC.zoo.startForm(...args);

  startExtras["wizard-dodgeball"] = function (box, game, current) {
    const x = game.extras;
    const before = current ? current.options : {};
    const rosters = before.rosters || x.defaults.rosters;
    const stats = before.wizards || {};
    const number = (name, v, min, max) => TC.el("input", {type: "number", name, min, max,
      value: v ?? "", inputmode: "numeric"});
    const sides = rosters.map((roster, side) => {
      const rows = roster.map((j, slot) => {
        const st = stats[String(j)] || {};
        const dice = x.stats.map((k) => TC.el("label", {}, `${k} `, TC.el("input", {name: k,
          size: 10, placeholder: "d6", value: st[k] ? (st[k][0] === st[k][1] ? st[k][0] : st[k].join("/")) : ""})));
        return TC.el("div", {class: "wiz", "data-side": side, "data-slot": slot},
          TC.el("label", {}, `${slot + 1}. #`, number("jersey", j, 0, x.jersey_max)),
          TC.el("input", {name: "name", value: st.name || "", placeholder: "name (optional)", maxlength: 32}),
          TC.el("details", {}, TC.el("summary", {}, "stats"),
            TC.el("label", {}, "move ", number("move", st.move, 0, 9)),
            TC.el("label", {}, "magic ", number("magic", st.magic, 0, 9)), dice));
      });
      return TC.el("fieldset", {class: "roster-form"},
        TC.el("legend", {}, `Player ${side + 1}'s wizards, in initiative order`), rows);
    });
    // The spell list is apart from the turn: all ten cards (the Basic Game) or the
    // cards each side bought with its Magic (the Advanced Game), with either turn.
    const wasBought = (before.spell_list || (before.turn === "advanced" && before.spells ? "bought" : "all")) === "bought";
    const bought = before.spells || [[], []];
    const list = TC.el("select", {name: "spell_list", "aria-label": "Spell cards"},
      TC.el("option", {value: "all", selected: !wasBought}, "all ten cards each (basic game)"),
      TC.el("option", {value: "bought", selected: wasBought}, "bought with the side's Magic (advanced game)"));
    const spellBoxes = [0, 1].map((side) => TC.el("fieldset", {"data-spells": side},
      TC.el("legend", {}, `Player ${side + 1}'s spell cards (bought)`),
      x.cards.map((c) => TC.el("label", {}, TC.el("input", {type: "checkbox", value: c.id,
        checked: wasBought && bought[side].includes(c.id)}),
        ` ${c.faces.map(TC.spellName).join(" / ")} (${c.cost})`))));
    const showBoxes = () => { for (const f of spellBoxes) f.hidden = list.value !== "bought"; };
    list.addEventListener("change", showBoxes);
    showBoxes();
    box.append(...sides, TC.el("label", {}, "Spell cards ", list), ...spellBoxes);
    return (options) => {
      options.rosters = [0, 1].map((side) => [...box.querySelectorAll(`.wiz[data-side="${side}"] [name=jersey]`)]
        .map((i) => Number(i.value)));
      const wizards = {};
      for (const row of box.querySelectorAll(".wiz")) {
        const get = (n) => row.querySelector(`[name=${n}]`).value.trim();
        const w = {};
        if (get("name")) w.name = get("name");
        for (const k of ["move", "magic"]) if (get(k) !== "") w[k] = Number(get(k));
        for (const k of x.stats) {
          const dice = get(k).split("/").map((c) => c.trim().toLowerCase()).filter(Boolean);
          if (dice.length) w[k] = dice.length === 1 ? dice[0] : dice;
        }
        if (Object.keys(w).length) wizards[get("jersey")] = w;
      }
      options.wizards = wizards;
      options.spell_list = list.value;
      if (list.value === "bought") {
        options.spells = spellBoxes.map((f) => [...f.querySelectorAll("input:checked")].map((i) => i.value));
      }
    };
  };

  $("start").addEventListener("submit", (e) => {
    e.preventDefault();
    const game = games.find((g) => g.id === $("game").value);
    const players = [...document.querySelectorAll("#players input")].map((i) => i.value.trim()).filter(Boolean);
    const options = {};
    for (const o of game.options) options[o.key] = o.choices[Number($("options").querySelector(`[name="${o.key}"]`).value)].value;
    if (collectExtras) collectExtras(options);
    const details = $("new-match");
    act("/api/match", {game: game.id, players, options}, e.submitter).then((started) => {
      if (!started) return;  // refused: the reason is beside Start, in view
      home.after(message);
      details.open = false;
      // The controls are the first thing on the page: the host is taken to them, not
      // left at the form far below.
      window.scrollTo({top: 0});
    });
  });
  $("game").addEventListener("change", renderStart);
  $("undo").addEventListener("click", () => act("/api/undo"));
  $("redo").addEventListener("click", () => act("/api/redo"));
  $("end").addEventListener("click", () => {
    if (confirm("End this match? It stays in the history, without a result.")) act("/api/match/end");
  });
  $("logout").addEventListener("click", () => TC.post("/api/logout")
    .then(() => location.reload(), (err) => say(err.message)));

  /* The New match form is folded away while a match is being played and open when none
     is; each time a match starts, ends or is won it is filled again from the last match
     (its players, options and game). Between those changes it is left as the user set it. */
  let folded = null;  // "<match id>/<status>" the form was last set for
  function fold(match) {
    const now = match ? `${match.id}/${match.status}` : "none";
    if (now === folded) return;
    const first = folded === null;
    folded = now;
    $("new-match").open = !(match && match.status === "active");
    if (!first && games.length) refill();
  }

  /** Fill the start form for a rematch of the last match: the likely next match. */
  function refill() {
    fetch("/api/rematch", {cache: "no-store"}).then((r) => r.json()).then((record) => {
      rematch = record;
      if (rematch) $("game").value = rematch.game;
      renderStart();
    }, () => renderStart());  // offline: the form as it is; the stream says so
  }

  // What the bar covers at the bottom of the screen: a control scrolled to sits above it.
  new ResizeObserver(() => document.documentElement.style.setProperty("--bar", `${$("bar").offsetHeight}px`))
    .observe($("bar"));

  let stream = null;
  TC.login($("login"), () => {
    $("host").hidden = false;
    say("");
    if (stream) { stream.resync(); return; }  // logged in again: the page already follows
    fetch("/api/games").then((r) => r.json()).then((list) => {
      games = list;
      $("game").replaceChildren(...games.map((g) => TC.el("option", {value: g.id}, g.title)));
      refill();
    });
    stream = TC.follow((s) => {
      state = s;
      fold(s.match);
      if (about !== null && about !== key(s)) say("");
      TC.renderBoard($("board"), s);
      // Controls of a game whose scripts are still on their way: drawn once they are here.
      TC.need(s.match && s.match.game).then(() => { if (state === s) renderActions(); }, (err) => say(err.message));
    });
  }, () => { $("host").hidden = true; });
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
    const seat = TC.el("button", {type: "button", class: "quiet"}, "Seat them");
    seat.addEventListener("click", () => {
      const inputs = fields.querySelectorAll("input");
      if (inputs.length >= 2) { inputs[0].value = pair.a.name; inputs[1].value = pair.b.name; }
    });
    fair.replaceChildren(`Fair pairing: ${pair.a.name} (${pair.a.rating.toFixed(1)}) v ${pair.b.name} (${pair.b.rating.toFixed(1)}) `, seat);
  };
  const form = document.getElementById("new-match");
  const load = () => {
    if (!form.open) return;
    fetch("/api/players").then((r) => (r.ok ? r.json() : null)).then((body) => {
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
