/* Wizard Dodgeball on the host's phone: every action of the active wizard and the start
   form's rosters, stats and spell cards. Needs wizard-dodgeball.js (TC.spellName). */
"use strict";

(function () {
  // Each menu is named for screen readers by what it picks (`aria`).
  const select = (name, values, label, aria) => TC.el("select", {name, "aria-label": aria},
    values.map((x) => TC.el("option", {value: JSON.stringify(x)}, label ? label(x) : String(x))));
  const value = (el) => JSON.parse(el.value);
  const button = (text, onclick) => TC.el("button", {type: "button", onclick}, text);

  /* Wizard Dodgeball: every action for the active wizard, from the legal shapes. */
  /** A wizard card's dice stats by name, as the start form labels them. */
  const STATS = {throw: TC.t("throw"), dodge: TC.t("dodge"), cast: TC.t("cast"), resist: TC.t("resist")};

  const controls = function (box, match, send) {
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
      onclick: () => send({type: "end_activation"})}, TC.t("End #{j}'s activation", {j: me})));
    // Which ball was thrown, when a Fireball is about: offered as legal orders it (the
    // likelier first); a loose one only the host can say.
    // With both sides' Fireballs loose, each is named by its side (0 or 1).
    const ballName = (f) => (f === true ? TC.t("the Fireball") : f === false ? TC.t("another ball") :
      TC.t("the {side} Fireball", {side: v.sides[f].name}));
    // legal offers every value taken; a side number naming again the ball `true` names
    // is left out, as the panel's ball_choices does.
    const balls = (values) => (!values.includes(true) ? values
      : values[0] === true ? values.filter((f) => typeof f === "boolean" || v.loose_fireballs.includes(f))
        : values.filter((f) => typeof f === "boolean"));
    const fireball = (s) => (s.fireball ? select("fireball", balls(s.fireball), ballName, TC.t("Which ball")) : null);
    const withBall = (menu) => (menu ? {fireball: value(menu)} : {});
    const throwing = shape("throw");
    if (throwing) {
      const target = select("target", offered("throw", "target"), who, TC.t("Target"));
      const range = select("range", [1, 2, 3], (z) => (z === 1 ? TC.t("1 zone away") : z === 2 ? TC.t("2 zones away")
        : TC.t("3 zones away")), TC.t("Range"));
      const ball = TC.el("input", {type: "checkbox", name: "holding"});
      // A target with Butter Fingers cannot be holding a ball: legal offers it false only.
      const canHold = () => offered("throw", "target_holding_ball", {target: value(target)}).includes(true);
      const holdable = () => { ball.disabled = !canHold(); if (ball.disabled) ball.checked = false; };
      target.addEventListener("change", holdable);
      holdable();
      const which = fireball(throwing);
      const body = () => ({thrower: me, target: value(target), ...withBall(which)});
      box.append(TC.el("fieldset", {"data-action": "throw"}, TC.el("legend", {}, TC.t("#{j} throws", {j: me})),
        target, range, TC.el("label", {}, ball, " ", TC.t("target holds a ball")), which,
        button(TC.t("Roll the throw"), () => send({type: "throw", ...body(),
          range: value(range), target_holding_ball: ball.checked})),
        button(TC.t("Hit (we rolled)"), () => send({type: "hit", ...body()}))));
    }
    const catching = shape("catch");
    if (catching) {
      const catcher = select("catcher", catching.catcher, who, TC.t("Catcher"));
      const back = select("returning", catching.returning, (j) => (j === null ? TC.t("nobody comes back")
        : TC.t("{wizard} comes back", {wizard: who(j)})), TC.t("Who comes back"));
      // Beside a Fireball the thrower threw another ball (a Fireball is not caught).
      const other = catching.fireball ? {fireball: catching.fireball[0]} : {};
      box.append(TC.el("fieldset", {"data-action": "catch"}, TC.el("legend", {}, TC.t("#{j}'s ball caught", {j: me})),
        catcher, back, button(TC.t("Caught"), () => send({type: "catch", thrower: me,
          catcher: value(catcher), returning: value(back), ...other}))));
    }
    // The spells cast from this menu, in card order (Dispel has its own).
    const order = Object.keys(v.sides[v.active.side].spells);
    const spells = offered("cast", "spell").filter((x) => x !== "dispel")
      .sort((a, b) => order.indexOf(a) - order.indexOf(b));
    if (spells.length) {
      const spell = select("spell", spells, TC.spellName, TC.t("Spell"));
      const ticks = offered("cast", "targets").map((j) => TC.el("label", {},
        TC.el("input", {type: "checkbox", value: j}), ` ${who(j)}`));
      const boxes = ticks.map((l) => l.firstChild);
      const targets = () => boxes.filter((c) => c.checked).map((c) => Number(c.value));
      const rolls = button(TC.t("Device rolls"), () => cast("cast_roll", targets()));
      const took = button(TC.t("It took effect"), () => cast("cast", targets()));
      const none = button(TC.t("No effect"), () => cast("cast", []));
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
        magic === 1 ? TC.t("Magic 1: up to 1 wizard, #{j} counted if named", {j: me})
          : TC.t("Magic {n}: up to {n} wizards, #{j} counted if named", {n: magic, j: me}));
      const cast = (type, affected) => send({type, caster: me, spell: value(spell), targets: affected});
      box.append(TC.el("fieldset", {"data-action": "cast"}, TC.el("legend", {}, TC.t("#{j} casts", {j: me})),
        spell, TC.el("div", {class: "row"}, ticks), reach,
        shape("cast_roll") ? rolls : null, took, none));
      refresh();
    }
    const dispel = shape("dispel");
    if (dispel) {
      const target = select("target", offered("dispel", "target"), who, TC.t("Wizard to dispel"));
      const effect = TC.el("select", {name: "effect", "aria-label": TC.t("Spell to dispel")});
      const rolls = button(TC.t("Device rolls"), () => send({type: "cast_roll", caster: me, spell: "dispel",
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
        button(TC.t("It failed"), () => send({type: "cast", caster: me, spell: "dispel", targets: []})) : null;
      box.append(TC.el("fieldset", {"data-action": "dispel"}, TC.el("legend", {}, TC.t("#{j} dispels", {j: me})),
        target, effect, rolls,
        button(TC.t("It worked"), () => send({type: "dispel", caster: me,
          target: value(target), spell: value(effect)})),
        failed));
    }
    const passing = shape("pass");
    if (passing) {
      const to = select("to", passing.to, who, TC.t("Pass to"));
      const which = fireball(passing);
      box.append(TC.el("fieldset", {"data-action": "pass"}, TC.el("legend", {}, TC.t("#{j} passes", {j: me})),
        to, which, button(TC.t("Pass"), () => send({type: "pass", thrower: me, to: value(to), ...withBall(which)}))));
    }
  };


  const startForm = function (box, game, current) {
    const x = game.extras;
    const before = current ? current.options : {};
    const rosters = before.rosters || x.defaults.rosters;
    const stats = before.wizards || {};
    const number = (name, v, min, max) => TC.el("input", {type: "number", name, min, max,
      value: v ?? "", inputmode: "numeric"});
    const sides = rosters.map((roster, side) => {
      const rows = roster.map((j, slot) => {
        const st = stats[String(j)] || {};
        const dice = x.stats.map((k) => TC.el("label", {}, STATS[k] || k, " ", TC.el("input", {name: k,
          size: 10, placeholder: "d6", value: st[k] ? (st[k][0] === st[k][1] ? st[k][0] : st[k].join("/")) : ""})));
        // One line a wizard: its jersey, its name; its stats folded (the card's defaults).
        return TC.el("div", {class: "wiz", "data-side": side, "data-slot": slot},
          TC.el("label", {class: "jersey-no"}, `${slot + 1}. #`, number("jersey", j, 0, x.jersey_max)),
          TC.el("input", {name: "name", value: st.name || "", placeholder: TC.t("name"), maxlength: 32,
            "aria-label": TC.t("wizard {n}'s name (optional)", {n: slot + 1})}),
          TC.el("details", {class: "wiz-stats"}, TC.el("summary", {}, TC.t("stats")),
            TC.el("label", {}, TC.t("move"), " ", number("move", st.move, 0, 9)),
            TC.el("label", {}, TC.t("magic"), " ", number("magic", st.magic, 0, 9)), dice));
      });
      // Each side's roster folded to one line that says it (its jerseys, in initiative
      // order): the usual match starts as it is, and the form stays a screen or so long.
      const said = TC.el("span", {class: "roster-sum"});
      const folded = TC.el("details", {class: "roster-form", "data-side": side},
        TC.el("summary", {}, TC.t("Player {n}'s wizards", {n: side + 1}), " ", said),
        TC.el("p", {class: "hint"}, TC.t("In initiative order; names and stats are optional.")), rows);
      const say = () => {
        said.textContent = [...folded.querySelectorAll("[name=jersey]")].map((i) => `#${i.value}`).join(" ");
      };
      folded.addEventListener("input", say);
      say();
      return folded;
    });
    // The spell list is apart from the turn: all ten cards (the Basic Game) or the
    // cards each side bought with its Magic (the Advanced Game), with either turn.
    const wasBought = (before.spell_list || (before.turn === "advanced" && before.spells ? "bought" : "all")) === "bought";
    const bought = before.spells || [[], []];
    const list = TC.el("select", {name: "spell_list", "aria-label": TC.t("Spell cards")},
      TC.el("option", {value: "all", selected: !wasBought}, TC.t("all ten each (basic)")),
      TC.el("option", {value: "bought", selected: wasBought}, TC.t("bought with Magic (advanced)")));
    const spellBoxes = [0, 1].map((side) => TC.el("fieldset", {"data-spells": side},
      TC.el("legend", {}, TC.t("Player {n}'s spell cards (bought)", {n: side + 1})),
      x.cards.map((c) => TC.el("label", {}, TC.el("input", {type: "checkbox", value: c.id,
        checked: wasBought && bought[side].includes(c.id)}),
        ` ${c.faces.map(TC.spellName).join(" / ")} (${c.cost})`))));
    const showBoxes = () => { for (const f of spellBoxes) f.hidden = list.value !== "bought"; };
    list.addEventListener("change", showBoxes);
    showBoxes();
    box.append(...sides, TC.el("label", {}, TC.t("Spell cards"), " ", list), ...spellBoxes);
    // The elimination variant has no points to reach: its target menu reads "none" and
    // is off (a target there would be refused); the points variant never offers "none".
    const menu = (key) => box.querySelector(`select[name="${key}"]`);
    const option = (key) => game.options.find((o) => o.key === key);
    const choices = (key) => option(key).choices;
    const chosen = (key) => choices(key)[Number(menu(key).value)].value;
    const none = String(choices("target").findIndex((c) => c.value === null));
    const standard = String(choices("target").findIndex((c) => c.value === option("target").default));
    const fitTarget = () => {
      const elimination = chosen("variant") === "elimination";
      const target = menu("target");
      target.querySelector(`option[value="${none}"]`).hidden = !elimination;
      if (elimination) target.value = none;
      else if (target.value === none) target.value = standard;
      target.disabled = elimination;
    };
    menu("variant").addEventListener("change", fitTarget);
    fitTarget();
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

  /* The host page's parts of Wizard Dodgeball (common.js, TC.hosts). */
  TC.hosts["wizard-dodgeball"] = {controls, startForm};
})();
