/* Wizard Dodgeball on the phones: its board (the host's controls are in host.js). */
"use strict";

/** A spell's name as printed on the English cards: players say it so in every language
 *  (docs/glossary, "Wizard Dodgeball"). */
TC.spellName = (id) => id.split("_").map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");

/** Each spell's three-letter code, the OLED's (companion/games/wizard_dodgeball/cards.py
 *  SHORT; a browser test holds the two equal): a chip on a phone, spelt out in the legend. */
TC.SPELL_CODES = {
  dispel: "DSP", fireball: "FIR", freeze: "FRZ", shield: "SHD", teleport: "TEL",
  butter_fingers: "BUT", sticky_fingers: "STK", magic_drain: "DRN", magic_boost: "BST",
  shrink: "SHR", enlarge: "ENL", slow: "SLO", speed: "SPD", weak: "WEK", strong: "STR",
};

/** A spell as a short chip, its name for screen readers and on a long press. */
TC.spellChip = (id, cls = "", extra = "") => TC.el("abbr", {class: `chip spell ${cls}`.trim(),
  title: TC.spellName(id) + extra}, TC.SPELL_CODES[id] || TC.spellName(id));

TC.boards["wizard-dodgeball"] = function (match) {
  const el = TC.el;
  const v = match.view;
  const over = v.winner !== null;
  const head = over ? [TC.t("{name} wins", {name: v.sides[v.winner].name})]
    : [TC.t("Round {n}", {n: v.round}), TC.t("activation {n}", {n: v.activation})];
  head.push(v.variant === "points" ? TC.t("first to {n}", {n: v.target}) : TC.t("elimination"));
  const scoreOf = (s) => (v.variant === "points" ? s.score : s.on_court);
  const sides = v.sides.map((s, i) => {
    const now = !over && v.active.side === i;
    const roster = s.wizards.map((w) => {
      const active = now && v.active.jersey === w.jersey;
      return el("li", {class: [w.on_court ? "" : "off", active ? "now" : ""].join(" ").trim() || null,
        "aria-current": active ? "true" : null},
      el("span", {class: "jersey"}, `#${w.jersey}`),
      w.on_court ? null : el("span", {class: "chip out"}, TC.t("out")),
      w.effects.map((e) => TC.spellChip(e, `fx-${e}`)),
      w.name ? el("span", {class: "wname"}, w.name) : null);
    });
    return el("section", {class: `side side-${i}${now ? " active" : ""}${v.winner === i ? " winner" : ""}`,
      "data-side": i, "aria-label": s.name},
    el("h2", {}, el("span", {class: "sname"}, TC.swatch(i), s.name),
      el("span", {class: "pts", "aria-label": v.variant === "points" ? TC.t("points: {n}", {n: s.score})
        : TC.t("on court: {n}", {n: s.on_court})}, scoreOf(s))),
    v.winner === i ? el("p", {class: "won"}, el("strong", {class: "chip won"}, TC.t("winner"))) : null,
    el("ol", {class: "roster"}, roster));
  });
  // The hands: a chip per face in hand, then each card out with who cast it and how many
  // activation ends until it is back.
  const used = new Set();
  const hands = v.sides.map((s, i) => {
    const ready = [];
    const out = [];
    const seen = new Set();
    for (const [id, st] of Object.entries(s.spells)) {
      used.add(id);
      if (st === "ready") ready.push(TC.spellChip(id, "ready"));
      else if (!seen.has(st.spell)) {
        seen.add(st.spell);
        const left = st.returns_after - v.activation + 1;
        out.push(el("li", {class: "recharging"}, TC.spellChip(st.spell, "used",
          TC.t(", cast by #{j}: back after activation {n}", {j: st.caster, n: st.returns_after})),
        ` #${st.caster} ⟳${left}`));
      }
    }
    return el("div", {class: `hand side-${i}`, "data-side": i},
      el("h3", {}, TC.swatch(i), s.name),
      el("ul", {class: "cards", "aria-label": TC.t("{name}: recharging", {name: s.name})}, out),
      el("p", {class: "ready"}, ready.length ? ready : TC.t("No card in hand")));
  });
  const legend = [...used].sort().map((id) => el("span", {}, el("b", {}, TC.SPELL_CODES[id] || id), ` ${TC.spellName(id)}`));
  const status = [];
  if (!over) status.push(TC.t("Now: #{j} ({side})", {j: v.active.jersey, side: v.sides[v.active.side].name}));
  // A frozen or eliminated wizard's reminder says it all.
  if (!over && (v.actions_left || v.used.length)) status.push(TC.actionsLeft(v));
  // A Fireball on a dropped ball, by side (the OLED's short reminder says it without).
  const loose = (v.loose_fireballs || []).map((side) => TC.t("The {side} Fireball is on a loose ball", {side: v.sides[side].name}));
  if (v.reminder && !(loose.length && v.reminder === "Fireball ball loose")) status.push(TC.wdReminder(v.reminder)); // i18n: not said
  status.push(...loose);
  const last = v.last;
  const dice = last ? TC.lastDice(last).replace(/^ · /, "") : "";
  return el("div", {class: `wd${over ? " over" : ""}`},
    el("p", {class: `head${over ? " over" : ""}`}, head.join(" · ")),
    // The last play (its dice after it, on the same lines) and what is on now keep two
    // lines each, empty or not: nothing moves, and no line stands empty for dice a play
    // without any does not have.
    el("div", {class: last ? "lastplay" : "lastplay none"},
      el("p", {class: "status last"}, last ? [TC.t("Last:"), " ", el("strong", {}, TC.wdLast(last))] : TC.t("No play yet"),
        dice ? [" · ", el("span", {class: "dice"}, dice)] : null)),
    over ? null : el("p", {class: "status now"}, status.join(" · ")),
    el("div", {class: "sides"}, sides),
    TC.statsTable(TC.t("Match stats"), v.sides.map((s) => s.name), [
      [TC.t("Hits"), v.sides.map((s) => (s.stats ? s.stats.hits : "–"))],
      [TC.t("Catches"), v.sides.map((s) => (s.stats ? s.stats.catches : "–"))],
      [TC.t("Casts"), v.sides.map((s) => (s.stats ? s.stats.casts : "–"))],
    ]),
    el("div", {class: "hands"}, hands),
    el("p", {class: "legend spells"}, el("span", {}, TC.t("Spells:"), " "), legend,
      el("span", {}, el("b", {}, "⟳n"), " ", TC.t("activation ends until a card is back"))));
};

TC.boards["wizard-dodgeball"].title = function (match) {
  const v = match.view;
  const [a, b] = v.sides.map((s) => (v.variant === "points" ? s.score : s.on_court));
  const name = v.winner !== null ? v.sides[v.winner].name : "";
  if (v.winner !== null) {
    return v.variant === "points" ? TC.t("{name} wins {score}", {name, score: `${a}-${b}`})
      : TC.t("{name} wins", {name});
  }
  return `${v.sides[0].name} ${a}-${b} ${v.sides[1].name}`;
};

/** The actions by name, as a list of what is left says them. */
TC.wdKinds = {throw: TC.t("throw"), cast: TC.t("cast")};

/** What the active wizard may still record this activation, e.g. "left: throw, cast". */
TC.actionsLeft = function (v) {
  if (v.actions !== null) {
    const said = {left: v.actions_left, total: v.actions};
    return v.actions === 1 ? TC.t("{left} of {total} action left", said)
      : TC.t("{left} of {total} actions left", said);
  }
  if (!v.open.length) return TC.t("no throw or cast left");
  // Slow: a throw or a cast; Speed: one more of either besides.
  if (v.actions_left < v.open.length) {
    const either = TC.t("throw or cast");
    return TC.t("left: {kinds}", {kinds: v.open.length > 1 ? either : TC.wdKinds[v.open[0]]});
  }
  const kinds = v.open.map((k) => TC.wdKinds[k]).join(", ");
  const more = v.actions_left - v.open.length;
  return more > 0 ? TC.t("left: {kinds} and {n} more", {kinds, n: more}) : TC.t("left: {kinds}", {kinds});
};

/** The board's reminder (the view's, in the OLED's English words: data here) in the
 *  page's language. */
TC.wdReminder = function (reminder) {
  const back = /^back: (\d+) actions?, no move$/.exec(reminder);
  if (back) return TC.t("back: no move; actions: {n}", {n: back[1]});
  const said = {
    "off the court: End": TC.t("off the court: end the activation"), // i18n: not said (the view's words: data)
    "frozen: no actions": TC.t("frozen: no actions"), // i18n: not said (the view's words: data)
    "back: no move this time": TC.t("back: no move this time"), // i18n: not said (the view's words: data)
    "Speed: +1 throw or cast": TC.t("Speed: +1 throw or cast"), // i18n: not said (the view's words: data)
    "Slow: throw or cast": TC.t("Slow: throw or cast"), // i18n: not said (the view's words: data)
    "Fireball ball loose": TC.t("A Fireball is on a loose ball"), // i18n: not said (the view's words: data)
    "both Fireballs loose": TC.t("Both Fireballs are on loose balls"), // i18n: not said (the view's words: data)
  };
  return said[reminder] || reminder;
};

/** The last play in the page's language, from its data (the view's "text" is the OLED's
 *  English line). */
TC.wdLast = function (last) {
  const jerseys = (list) => list.map((j) => `#${j}`).join(" ");
  const shields = (last.shields || []).map((j) => TC.t("#{j} Shield", {j}));
  const spell = last.spell ? TC.spellName(last.spell) : "";
  const score = last.attack !== undefined ? `${last.attack}v${last.defence}` : null;
  if (last.type === "end_activation") return TC.t("{jerseys} off: skipped", {jerseys: jerseys(last.skipped)});
  if (last.type === "pass") {
    return last.fireball ? TC.t("#{thrower} passed to #{to} (Fireball)", last)
      : TC.t("#{thrower} passed to #{to}", last);
  }
  if (last.result === "catch" || last.type === "catch") {
    const said = {catcher: last.catcher ?? last.target, thrower: last.thrower, returning: last.returning};
    return last.returning !== null && last.returning !== undefined
      ? TC.t("#{catcher} caught #{thrower}, #{returning} back", said) : TC.t("#{catcher} caught #{thrower}", said);
  }
  if (last.type === "hit" || last.type === "throw") {
    const said = {thrower: last.thrower, target: last.target, score};
    if (last.result === "dodge") {
      return last.triples && last.target_holding_ball ? TC.t("#{target} dodged #{thrower} ({score}) triples", said)
        : TC.t("#{target} dodged #{thrower} ({score})", said);
    }
    const shield = last.result === "shield";
    if (score === null) return shield ? TC.t("#{thrower} hit #{target}: Shield", said) : TC.t("#{thrower} hit #{target}: out", said);
    return shield ? TC.t("#{thrower} hit #{target} ({score}): Shield", said) : TC.t("#{thrower} hit #{target} ({score}): out", said);
  }
  const on = jerseys(last.affected || []);
  const absorbed = shields.join(", ");
  if (last.type === "dispel") {
    const said = {caster: last.caster, effect: TC.spellName(last.effect), target: last.targets[0]};
    const head = on ? TC.t("#{caster} dispelled {effect} on #{target}", said) : TC.t("#{caster} Dispel {effect} on #{target}", said);
    return absorbed ? `${head}: ${absorbed}` : head;
  }
  if (last.type === "cast") {
    const said = {caster: last.caster, spell, on, shields: absorbed};
    if (on) return absorbed ? TC.t("#{caster} {spell} on {on}, {shields}", said) : TC.t("#{caster} {spell} on {on}", said);
    const nothing = TC.t("no effect");
    return TC.t("#{caster} {spell}: {news}", {...said, news: absorbed || nothing});
  }
  let news;
  if (last.spell === "dispel") news = on ? TC.t("worked") : absorbed || TC.t("resisted");
  else {
    news = [on ? TC.t("on {on}", {on}) : "", absorbed].filter(Boolean).join(", ") || TC.t("resisted");
    if (last.rebound) news = TC.t("rebound, {news}", {news});
  }
  const said = {caster: last.caster, spell, total: last.cast, news};
  return last.cast === null ? TC.t("#{caster} {spell}: {news}", said) : TC.t("#{caster} {spell} {total}: {news}", said);
};

/* What an undo took back: the last play as above, else the kind's word (a throw, pass,
   hit, catch or cast is always the view's last play, said by TC.wdLast). */
TC.lastWords["wizard-dodgeball"] = (last) => TC.wdLast(last);
TC.eventWords["wizard-dodgeball"] = {cast_roll: TC.t("cast roll"), dispel: TC.t("dispel"),
  end_activation: TC.t("end activation")};

/** The dice behind the last play, e.g. " · throw 4+5 v dodge 2+3". */
TC.lastDice = function (last) {
  const sum = (d) => d.join("+");
  const results = {resisted: TC.t("resisted"), rebound: TC.t("rebound"), shield: TC.t("Shield"),
    affected: TC.t("affected")};
  if (last.type === "throw") {
    const attack = last.fireball ? TC.t("Fireball 10") : TC.t("throw {dice}", {dice: sum(last.throw)});
    const dodge = last.frozen ? TC.t("frozen 5") : TC.t("dodge {dice}", {dice: sum(last.dodge)});
    const versus = TC.t("{attack} v {dodge}", {attack, dodge});
    return ` · ${versus}`;
  }
  if (last.type === "cast_roll") {
    // A spell on teammates alone is not rolled: no cast total to show.
    if (last.cast === null) return "";
    const parts = last.results.filter((r) => r.dice)
      .map((r) => TC.t("#{j} resists {dice}: {result}", {j: r.resister, dice: sum(r.dice), result: results[r.result] || r.result}));
    if (last.rebound) {
      parts.push(TC.t("rebound: #{j} {dice}: {result}", {j: last.caster, dice: sum(last.rebound.dice),
        result: results[last.rebound.result] || last.rebound.result}));
    }
    const total = TC.t("cast {total}", {total: last.cast});
    return ` · ${total}${parts.length ? "; " + parts.join("; ") : ""}`;
  }
  return "";
};
