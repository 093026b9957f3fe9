// i18n: words not marked yet (issue #40)
/* Wizard Dodgeball on the phones: its board (the host's controls are in host.js). */
"use strict";

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
  const head = over ? [`${v.sides[v.winner].name} wins`]
    : [`Round ${v.round}`, `activation ${v.activation}`];
  head.push(v.variant === "points" ? `first to ${v.target}` : "elimination");
  const scoreOf = (s) => (v.variant === "points" ? s.score : s.on_court);
  const sides = v.sides.map((s, i) => {
    const now = !over && v.active.side === i;
    const roster = s.wizards.map((w) => {
      const active = now && v.active.jersey === w.jersey;
      return el("li", {class: [w.on_court ? "" : "off", active ? "now" : ""].join(" ").trim() || null,
        "aria-current": active ? "true" : null},
      el("span", {class: "jersey"}, `#${w.jersey}`),
      w.on_court ? null : el("span", {class: "chip out"}, "out"),
      w.effects.map((e) => TC.spellChip(e, `fx-${e}`)),
      w.name ? el("span", {class: "wname"}, w.name) : null);
    });
    return el("section", {class: `side side-${i}${now ? " active" : ""}${v.winner === i ? " winner" : ""}`,
      "data-side": i, "aria-label": s.name},
    el("h2", {}, el("span", {class: "sname"}, TC.swatch(i), s.name),
      el("span", {class: "pts", "aria-label": v.variant === "points" ? `${s.score} points`
        : `${s.on_court} on court`}, scoreOf(s))),
    v.winner === i ? el("p", {class: "won"}, el("strong", {class: "chip won"}, "winner")) : null,
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
          `, cast by #${st.caster}: back after activation ${st.returns_after}`),
        ` #${st.caster} ⟳${left}`));
      }
    }
    return el("div", {class: `hand side-${i}`, "data-side": i},
      el("h3", {}, TC.swatch(i), s.name),
      el("ul", {class: "cards", "aria-label": `${s.name}: recharging`}, out),
      el("p", {class: "ready"}, ready.length ? ready : "No card in hand"));
  });
  const legend = [...used].sort().map((id) => el("span", {}, el("b", {}, TC.SPELL_CODES[id] || id), ` ${TC.spellName(id)}`));
  const status = [];
  if (!over) status.push(`Now: #${v.active.jersey} (${v.sides[v.active.side].name})`);
  // A frozen or eliminated wizard's reminder says it all.
  if (!over && (v.actions_left || v.used.length)) status.push(TC.actionsLeft(v));
  // A Fireball on a dropped ball, by side (the OLED's short reminder says it without).
  const loose = (v.loose_fireballs || []).map((side) => `${v.sides[side].name}'s Fireball is on a loose ball`);
  if (v.reminder && !(loose.length && v.reminder === "Fireball ball loose")) status.push(v.reminder);
  status.push(...loose);
  const last = v.last;
  const dice = last ? TC.lastDice(last).replace(/^ · /, "") : "";
  return el("div", {class: `wd${over ? " over" : ""}`},
    el("p", {class: `head${over ? " over" : ""}`}, head.join(" · ")),
    // The last play (its dice after it, on the same lines) and what is on now keep two
    // lines each, empty or not: nothing moves, and no line stands empty for dice a play
    // without any does not have.
    el("div", {class: last ? "lastplay" : "lastplay none"},
      el("p", {class: "status last"}, last ? ["Last: ", el("strong", {}, last.text)] : "No play yet",
        dice ? [" · ", el("span", {class: "dice"}, dice)] : null)),
    over ? null : el("p", {class: "status now"}, status.join(" · ")),
    el("div", {class: "sides"}, sides),
    TC.statsTable("Match stats", v.sides.map((s) => s.name), [
      ["Hits", v.sides.map((s) => (s.stats ? s.stats.hits : "–"))],
      ["Catches", v.sides.map((s) => (s.stats ? s.stats.catches : "–"))],
      ["Casts", v.sides.map((s) => (s.stats ? s.stats.casts : "–"))],
    ]),
    el("div", {class: "hands"}, hands),
    el("p", {class: "legend spells"}, el("span", {}, "Spells: "), legend,
      el("span", {}, el("b", {}, "⟳n"), " activation ends until a card is back")));
};

TC.boards["wizard-dodgeball"].title = function (match) {
  const v = match.view;
  const [a, b] = v.sides.map((s) => (v.variant === "points" ? s.score : s.on_court));
  return v.winner !== null ? `${v.sides[v.winner].name} wins ${v.variant === "points" ? `${a}-${b}` : ""}`.trim()
    : `${v.sides[0].name} ${a}-${b} ${v.sides[1].name}`;
};

/** What the active wizard may still record this activation, e.g. "left: throw, cast". */
TC.actionsLeft = function (v) {
  if (v.actions !== null) {
    return `${v.actions_left} of ${v.actions} action${v.actions === 1 ? "" : "s"} left`;
  }
  if (!v.open.length) return "no throw or cast left";
  // Slow: a throw or a cast; Speed: one more of either besides.
  if (v.actions_left < v.open.length) return `left: ${v.open.join(" or ")}`;
  const more = v.actions_left - v.open.length;
  return `left: ${v.open.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
};

/** The dice behind the last play, e.g. " · throw 4+5 v dodge 2+3". */
TC.lastDice = function (last) {
  const sum = (d) => d.join("+");
  if (last.type === "throw") {
    const attack = last.fireball ? "Fireball 10" : `throw ${sum(last.throw)}`;
    const dodge = last.frozen ? "frozen 5" : `dodge ${sum(last.dodge)}`;
    return ` · ${attack} v ${dodge}`;
  }
  if (last.type === "cast_roll") {
    // A spell on teammates alone is not rolled: no cast total to show.
    if (last.cast === null) return "";
    const parts = last.results.filter((r) => r.dice)
      .map((r) => `#${r.resister} resists ${sum(r.dice)}: ${r.result}`);
    if (last.rebound) parts.push(`rebound: #${last.caster} ${sum(last.rebound.dice)}: ${last.rebound.result}`);
    return ` · cast ${last.cast}${parts.length ? "; " + parts.join("; ") : ""}`;
  }
  return "";
};
