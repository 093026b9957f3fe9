/* Wizard Dodgeball on the phones: its board (the host's controls are in host.js). */
"use strict";

TC.spellName = (id) => id.split("_").map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");

TC.boards["wizard-dodgeball"] = function (match) {
  const v = match.view;
  const over = v.winner !== null;
  const head = over ? [`${v.sides[v.winner].name} wins`]
    : [`Round ${v.round}`, `activation ${v.activation}`];
  head.push(v.variant === "points" ? `first to ${v.target}` : "elimination");
  const sides = v.sides.map((s, i) => {
    const now = !over && v.active.side === i;
    const roster = s.wizards.map((w) => {
      const active = now && v.active.jersey === w.jersey;
      return TC.el("li", {class: [w.on_court ? "" : "off", active ? "now" : ""].join(" ").trim() || null,
        "aria-current": active ? "true" : null},
        TC.el("span", {class: "jersey"}, `#${w.jersey}`),
        TC.el("span", {class: "wname"}, w.name || ""),
        w.on_court ? null : TC.el("span", {class: "chip out"}, "off court"),
        w.effects.map((e) => TC.el("span", {class: `chip fx-${e}`}, TC.spellName(e))));
    });
    const cards = [];
    const ready = [];
    const seen = new Set();
    for (const [id, st] of Object.entries(s.spells)) {
      if (st === "ready") ready.push(TC.spellName(id));
      else if (!seen.has(st.spell)) {
        seen.add(st.spell);
        const left = st.returns_after - v.activation + 1;
        cards.push(TC.el("li", {class: "recharging"}, TC.el("strong", {}, TC.spellName(st.spell)),
          ` by #${st.caster} · back after activation ${st.returns_after} (${left} left)`));
      }
    }
    return TC.el("section", {class: `side${now ? " active" : ""}`, "data-side": i},
      TC.el("h2", {}, s.name, TC.el("span", {class: "pts"},
        v.variant === "points" ? s.score : `${s.on_court} on court`)),
      TC.el("ol", {class: "roster"}, roster),
      TC.el("ul", {class: "cards"}, cards,
        TC.el("li", {class: "ready"}, ready.length ? `Ready: ${ready.join(", ")}` : "No card in hand")));
  });
  const status = [];
  if (!over) status.push(`Now: #${v.active.jersey} (${v.sides[v.active.side].name})`);
  // A frozen or eliminated wizard's reminder says it all.
  if (!over && (v.actions_left || v.used.length)) status.push(TC.actionsLeft(v));
  if (v.reminder) status.push(v.reminder);
  return TC.el("div", {class: "wd"},
    TC.el("p", {class: "head"}, head.join(" · ")),
    TC.el("p", {class: "status now"}, status.join(" · ")),
    TC.el("div", {class: "sides"}, sides),
    v.last ? TC.el("p", {class: "status last"}, "Last: ", v.last.text, TC.lastDice(v.last)) : null);
};

/** What the active wizard may still record this activation, e.g. "left: throw, cast". */
TC.actionsLeft = function (v) {
  if (v.actions !== null) {
    return `${v.actions_left} of ${v.actions} action${v.actions === 1 ? "" : "s"} left`;
  }
  return v.open.length ? `left: ${v.open.join(", ")}` : "no throw or cast left";
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
    const parts = last.results.filter((r) => r.dice)
      .map((r) => `#${r.resister} resists ${sum(r.dice)}: ${r.result}`);
    if (last.rebound) parts.push(`rebound: #${last.caster} ${sum(last.rebound.dice)}: ${last.rebound.result}`);
    return ` · cast ${last.cast}${parts.length ? "; " + parts.join("; ") : ""}`;
  }
  return "";
};
