// i18n: words not marked yet (issue #40)
/* Alakazoo on the host's phone: the start form's own parts and every turn control. Needs
   alakazoo.js (TC.zoo). */
"use strict";

/* --- the start form ------------------------------------------------------------------ */

/**
 * The parts of the start form the menu options do not cover: each player's Portal board
 * (creature), the first player's menu in the players' names, the creature names (six) and
 * the Spell Dice faces. Returns the function that adds them to the options sent.
 */
TC.zoo.startForm = function (box, game, current) {
  const el = TC.el;
  const x = game.extras;
  const before = current ? current.options : {};
  const inputs = () => [...document.querySelectorAll("#players input")];
  const names = x.creatures.map((n, i) => el("input", {name: "creature", value: (before.creatures || x.creatures)[i],
    maxlength: x.max_creature_name, size: x.max_creature_name, required: true,
    "aria-label": `Creature ${i + 1}'s name`}));
  const portals = inputs().map((_, i) => {
    const pick = el("select", {name: "portal", "aria-label": `Player ${i + 1}'s Portal board`},
      names.map((n, c) => el("option", {value: c + 1, selected: ((before.portals || [])[i] || i + 1) === c + 1}, n.value)));
    const who = el("span", {class: "who"});
    return {row: el("label", {class: "zoo-player"}, who, pick), who, pick};
  });
  // The creatures put back in the box (two with two players, one with three): ticked, or
  // none, and the first creatures displayed decide the deck.
  const boxed = x.creatures.map((_, c) => el("input", {type: "checkbox", name: "boxed", value: c + 1,
    checked: (before.boxed || []).includes(c + 1)}));
  const boxedSet = el("fieldset", {class: "zoo-boxed"}, el("legend", {}, "Put back in the box"),
    boxed.map((b) => el("label", {}, b, document.createTextNode(""))),
    el("p", {class: "hint"}, "Two creatures with two players, one with three. None ticked: the first creatures displayed decide."));
  boxed.forEach((b) => b.addEventListener("change", () => update()));
  const faces = el("input", {name: "dice_faces", value: (before.dice_faces || x.dice_faces).join(", "),
    "aria-describedby": "zoo-faces-hint"});
  const first = box.querySelector("[name=first_player]");
  const reset = box.querySelector("[name=dark_power_reset]");
  if (first && before.first_roll !== undefined) {
    const rolled = before.first_roll !== null;
    const choices = game.options.find((o) => o.key === "first_player").choices;
    first.value = String(choices.findIndex((c) => c.value === (rolled ? "roll" : before.first_player)));
  }
  if (reset && before.dark_power_reset === false) reset.value = "1";
  const update = () => {
    const typed = inputs().map((i) => i.value.trim());
    portals.forEach((r, i) => { r.row.hidden = !typed[i]; r.who.textContent = `${typed[i]}'s portal`; });
    // The first player's menu names the players; no choice for a seat left empty.
    if (first) {
      [...first.options].forEach((o, k) => {
        if (k < typed.length) { o.textContent = typed[k] || `Player ${k + 1}`; o.hidden = !typed[k]; }
        else o.textContent = "the device rolls";
      });
    }
    for (const r of portals) names.forEach((n, c) => { r.pick.options[c].textContent = n.value.trim() || `Creature ${c + 1}`; });
    // Each creature is on one Portal board at most: a creature another seated player's
    // board shows is not offered (a board whose creature was taken moves to a free one).
    const seated = portals.filter((_, i) => typed[i]);
    seated.forEach((r) => {
      const others = seated.filter((o) => o !== r).map((o) => Number(o.pick.value));
      if (others.includes(Number(r.pick.value))) {
        r.pick.value = String([1, 2, 3, 4, 5, 6].find((c) => !others.includes(c)));
      }
      [...r.pick.options].forEach((o) => { o.disabled = others.includes(Number(o.value)); });
    });
    // A creature on a Portal board always plays: it cannot go back in the box. The box
    // takes two creatures with two players, one with three, none with four.
    const onBoard = seated.map((r) => Number(r.pick.value));
    const room = Math.max(0, 4 - seated.length);
    boxed.forEach((b, c) => {
      if (onBoard.includes(c + 1)) b.checked = false;
      b.parentNode.hidden = onBoard.includes(c + 1);
      b.nextSibling.textContent = ` ${names[c].value.trim() || `Creature ${c + 1}`}`;
    });
    let ticked = boxed.filter((b) => b.checked);
    for (const b of ticked.slice(room)) b.checked = false;
    ticked = ticked.slice(0, room);
    for (const b of boxed) b.disabled = !b.checked && ticked.length >= room;
    boxedSet.hidden = room === 0;
  };
  box.prepend(el("fieldset", {class: "zoo-setup"}, el("legend", {}, "Portal boards"), portals.map((r) => r.row)));
  box.append(
    el("p", {class: "hint"}, "At 3 Dark Power a player passes the turn: Reset puts their Dark Power back to 0, Keep leaves it at 3."),
    el("details", {class: "zoo-names"}, el("summary", {}, "Creature names, the deck and Spell Dice"),
      el("div", {class: "names"}, names.map((n, i) => el("label", {class: `cr${i + 1}`}, `${i + 1}`, n))),
      boxedSet,
      el("label", {}, "Spell Dice faces ", faces),
      el("p", {class: "hint", id: "zoo-faces-hint"}, `2 to 12 faces, up to ${x.max_face} letters each, separated by commas. ` +
        `Default: ${x.dice_faces.join(", ")} (${x.dice_faces[0]} is the Magic Power symbol).`)));
  update();
  document.getElementById("players").oninput = () => { if (faces.isConnected) update(); };
  names.forEach((n) => n.addEventListener("input", update));
  portals.forEach((r) => r.pick.addEventListener("change", update));
  return (options) => {
    const typed = inputs().map((i) => i.value.trim());
    options.portals = portals.filter((_, i) => typed[i]).map((r) => Number(r.pick.value));
    options.creatures = names.map((n) => n.value.trim());
    options.dice_faces = faces.value.split(",").map((f) => f.trim()).filter(Boolean);
    const out = boxed.filter((b) => b.checked && !b.parentNode.hidden).map((b) => Number(b.value));
    if (out.length) options.boxed = out;
  };
};

/* --- the host's controls ----------------------------------------------------------- */

/** The space picked on the current player's portal, for the state it was picked on. */
TC.zoo.picked = null;

/**
 * Every Alakazoo control the rules allow now (match.legal), for the current player:
 * display, the turn's one action (Spell Dice, a Helper's swap or trick), Dark Power,
 * end the turn. `send(action, near)` posts one, its refusal shown after `near`; each
 * action names the current player ("by"): the table refuses it on another's turn.
 */
TC.zoo.controls = function (box, match, send) {
  const v = match.view;
  const el = TC.el;
  const p = v.current;
  if (p === null) {
    // Over: nothing is left to record but an undo (in the bar).
    box.append(el("p", {class: "hint zoo-over"}, "The game is over: the Magic Jury has scored. Undo takes back the last action."));
    return;
  }
  const me = v.players[p];
  const shapes = (type, key) => match.legal.filter((s) => s.type === type && (!key || key in s));
  /** The creatures a display or a hand swap may bring onto space s: the shape that has it. */
  const cardsFor = (list, s) => (list.find((x) => x.space.includes(s)) || {creature: []}).creature;
  const spacesOf = (list) => [...new Set(list.flatMap((x) => x.space))].sort((a, b) => a - b);
  const act = (body, near) => send({...body, by: p}, near);
  const button = (text, body, near, attrs) => el("button", {type: "button", ...attrs, onclick: () => act(body, near())}, text);

  box.append(el("p", {class: "zoo-turn"}, `${me.name}'s turn · round ${v.round}`,
    v.roll ? ` · Spell Dice: ${v.roll.faces.join(" · ")}` : ""));

  const display = shapes("display");
  if (display.length) {
    const open = spacesOf(display);
    const key = `${match.id}/${v.round}/${p}`;
    if (!TC.zoo.picked || TC.zoo.picked.key !== key || !open.includes(TC.zoo.picked.space)) TC.zoo.picked = null;
    const left = v.max_displays - v.displays;
    const fs = el("fieldset", {"data-action": "display"}, el("legend", {},
      `Display on ${me.name}'s portal (${left} more this turn)`));
    const creatures = (space) => el("div", {class: "creatures"}, (space ? cardsFor(display, space) : []).map((c) =>
      el("button", {type: "button", class: `cr${c}`, "data-creature": c,
        onclick: () => act({type: "display", space, creature: c}, fs)}, v.creatures[c - 1])));
    let room = 0;  // the height of the tallest choice of creatures any open space offers
    const redraw = () => {
      const picked = TC.zoo.picked && TC.zoo.picked.space;
      // Only the cards that can be in a hand: none shown on that space, none out of the deck.
      const row = creatures(picked);
      row.style.minHeight = `${room}px`;
      fs.replaceChildren(fs.firstChild,
        el("p", {class: "hint"}, picked ? `Space ${picked}: which creature?` : "Tap an empty space, then the creature."),
        TC.zoo.portal(v, p, {picked, pick: (s) => { TC.zoo.picked = {key, space: s}; redraw(); }}),
        row);
    };
    redraw();
    box.append(fs);
    // The creatures' row is as tall as the longest choice from the start: a tap on a space
    // fills it, and nothing under it (the board) moves, however late the frame after the
    // tap is drawn. Measured here, in the task that draws the form: never painted.
    const row = fs.querySelector(".creatures");
    room = Math.max(0, ...open.map((s) => {
      const probe = creatures(s);
      row.replaceWith(probe);
      const height = probe.offsetHeight;
      probe.replaceWith(row);
      return height;
    }));
    row.style.minHeight = `${room}px`;
  } else if (v.no_display) {
    // The most a turn allows (3, 2 after the Helper), or fewer: the Magic Power the
    // record allows the player pays for no more. The engine's words, as it refuses.
    box.append(el("p", {class: "hint", "data-note": "displays"}, v.no_display));
  }

  const [roll] = shapes("roll");
  if (roll) {
    const fs = el("fieldset", {"data-action": "roll"}, el("legend", {}, "Spell Dice (the turn's one action)"));
    const dice = [0, 1, 2].map((i) => el("select", {name: "face", "aria-label": `Die ${i + 1}`},
      i ? el("option", {value: ""}, "—") : null, v.dice_faces.map((f) => el("option", {value: f}, f))));
    fs.append(el("div", {class: "row"}, "The device rolls:", roll.dice.map((n) => button(`${n}`, {type: "roll", dice: n},
      () => fs, {"aria-label": `The device rolls ${n === 1 ? "1 Spell Die" : `${n} Spell Dice`}`, "data-dice": n}))),
    el("div", {class: "row"}, dice, el("button", {type: "button", "data-table": "", onclick: () => act({type: "roll",
      faces: dice.map((d) => d.value).filter(Boolean)}, fs)}, "We rolled")));
    box.append(fs);
  }
  const [column] = shapes("column");
  if (column) {
    const fs = el("fieldset", {"data-action": "column"}, el("legend", {}, "Cards (the turn's one action)"));
    fs.append(button("Take a column or discard", {type: "column"}, () => fs, {"data-column": ""}));
    box.append(fs);
  }
  const withPlayer = shapes("swap", "player");
  const withHand = shapes("swap", "creature");
  const [helper] = shapes("helper");
  if (withPlayer.length || withHand.length || helper) {
    const fs = el("fieldset", {"data-action": "swap"}, el("legend", {}, "The Magic Helper (the turn's one action)"));
    if (withPlayer.length) {
      // Only the exchanges the rules allow (a shape per player): both spaces filled, two
      // different creatures.
      const pairs = withPlayer.flatMap((x) => x.space.flatMap((s) => x.player.map((o) => [s, o])))
        .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      const pick = el("select", {name: "pair", "aria-label": "Space and player to swap with"},
        pairs.map(([s, o]) => el("option", {value: `${s}/${o}`},
          `space ${s}: ${v.creatures[me.portal[s - 1] - 1]} ↔ ${v.players[o].name}'s ${v.creatures[v.players[o].portal[s - 1] - 1]}`)));
      fs.append(el("div", {class: "row"}, pick, el("button", {type: "button", onclick: () => {
        const [s, o] = pick.value.split("/").map(Number);
        act({type: "swap", space: s, player: o}, fs);
      }}, "Swap (+1 Dark Power)")));
    }
    if (withHand.length) {
      const space = el("select", {name: "space", "aria-label": "Space to swap"}, spacesOf(withHand).map((s) =>
        el("option", {value: s}, `space ${s}: ${v.creatures[me.portal[s - 1] - 1]}`)));
      const card = el("select", {name: "card", "aria-label": "Creature card from the hand"});
      // The hand cards that space may take: none shown on that space elsewhere, none out of the deck.
      const cards = () => card.replaceChildren(...cardsFor(withHand, Number(space.value)).map((c) =>
        el("option", {value: c}, `for ${v.creatures[c - 1]} from the hand`)));
      space.onchange = cards;
      cards();
      fs.append(el("div", {class: "row"}, space, card, el("button", {type: "button", onclick: () =>
        act({type: "swap", space: Number(space.value), creature: Number(card.value)}, fs)}, "Swap")));
    }
    if (helper) {
      const tricks = {hand: "A hand card for another player's (+1 Dark Power)", column: "A hand card for one from a column"};
      fs.append(el("div", {class: "row"}, helper.trick.map((t) => button(tricks[t], {type: "helper", trick: t},
        () => fs, {"data-trick": t}))));
    }
    box.append(fs);
  }
  if (!roll && v.acted) {
    box.append(el("p", {class: "hint"}, "The turn's one action (Spell Dice, a column, or the Helper) is spent."));
  }

  const [dark] = shapes("dark_power");
  // The Helper's hand trick is offered with the Helper; here the penalties.
  const reasons = dark ? dark.reason.filter((r) => r !== "helper") : [];
  if (reasons.length) {
    const fs = el("fieldset", {"data-action": "dark_power"}, el("legend", {},
      `+1 Dark Power for ${me.name} (${me.dark_power} of ${v.dark_max})`));
    fs.append(...reasons.map((r) => button(TC.zoo.REASONS[r], {type: "dark_power", reason: r}, () => fs, {"data-reason": r})));
    box.append(fs);
  }
  const [end] = shapes("end_turn");
  if (end) {
    // In the host's bar at the bottom of the screen (data-bar); a refusal is said there.
    // The name on a line of its own, cut where it is too wide (whole in the title and the
    // button's name): the bar stays two lines tall.
    const words = `End ${me.name}'s turn`;
    box.append(button(["End turn ", el("span", {class: "who"}, me.name)], {type: "end_turn"}, () => null,
      {class: "primary", "data-action": "end_turn", "data-bar": "", title: words, "aria-label": words}));
  }
};

/* The host page's parts of Alakazoo (common.js, TC.hosts). */
TC.hosts.alakazoo = {controls: TC.zoo.controls, startForm: TC.zoo.startForm};
