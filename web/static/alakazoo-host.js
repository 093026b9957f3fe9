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
    "aria-label": TC.t("Creature {number}'s name", {number: i + 1})}));
  const portals = inputs().map((_, i) => {
    const pick = el("select", {name: "portal", "aria-label": TC.t("Player {number}'s Portal board", {number: i + 1})},
      names.map((n, c) => el("option", {value: c + 1, selected: ((before.portals || [])[i] || i + 1) === c + 1}, n.value)));
    const who = el("span", {class: "who"});
    return {row: el("label", {class: "zoo-player"}, who, pick), who, pick};
  });
  // The creatures put back in the box (two with two players, one with three): ticked, or
  // none, and the first creatures displayed decide the deck.
  const boxed = x.creatures.map((_, c) => el("input", {type: "checkbox", name: "boxed", value: c + 1,
    checked: (before.boxed || []).includes(c + 1)}));
  const boxedSet = el("fieldset", {class: "zoo-boxed"}, el("legend", {}, TC.t("Put back in the box")),
    boxed.map((b) => el("label", {}, b, document.createTextNode(""))),
    el("p", {class: "hint"}, TC.t("Two creatures with two players, one with three. None ticked: the first creatures displayed decide.")));
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
    portals.forEach((r, i) => { r.row.hidden = !typed[i]; r.who.textContent = TC.isolate(TC.t("{name}'s portal", {name: typed[i]})); });
    // The first player's menu names the players; no choice for a seat left empty, and a
    // seat chosen, then emptied, leaves the choice to the device's roll.
    if (first) {
      [...first.options].forEach((o, k) => {
        if (k < typed.length) { o.textContent = typed[k] || TC.t("Player {number}", {number: k + 1}); o.hidden = !typed[k]; }
        else o.textContent = TC.t("the device rolls");
      });
      if (first.selectedOptions[0]?.hidden) first.selectedIndex = first.options.length - 1;
    }
    for (const r of portals) names.forEach((n, c) => { r.pick.options[c].textContent = n.value.trim() || TC.t("Creature {number}", {number: c + 1}); });
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
      b.nextSibling.textContent = " " + (names[c].value.trim() || TC.t("Creature {number}", {number: c + 1}));
    });
    let ticked = boxed.filter((b) => b.checked);
    for (const b of ticked.slice(room)) b.checked = false;
    ticked = ticked.slice(0, room);
    for (const b of boxed) b.disabled = !b.checked && ticked.length >= room;
    boxedSet.hidden = room === 0;
  };
  box.prepend(el("fieldset", {class: "zoo-setup"}, el("legend", {}, TC.t("Portal boards")), portals.map((r) => r.row)));
  // The 3 DP pass menu's choices, named as they read in the page's language.
  const said = reset ? [...reset.options].map((o) => o.textContent) : ["Reset", "Keep"]; // i18n: not said (the menu's own labels, said by the server)
  box.append(
    el("p", {class: "hint"}, TC.t("At 3 Dark Power a player passes the turn: {reset} puts their Dark Power back to 0, {keep} leaves it at 3.",
      {reset: said[0], keep: said[1]})),
    el("details", {class: "zoo-names"}, el("summary", {}, TC.t("Creature names, the deck and Spell Dice")),
      el("div", {class: "names"}, names.map((n, i) => el("label", {class: `cr${i + 1}`}, `${i + 1}`, n))),
      boxedSet,
      el("label", {}, TC.t("Spell Dice faces"), " ", faces),
      el("p", {class: "hint", id: "zoo-faces-hint"}, TC.t("2 to 12 faces, up to {most} letters each, separated by commas. Default: {faces} ({magic} is the Magic Power symbol).",
        {most: x.max_face, faces: x.dice_faces.join(", "), magic: x.dice_faces[0]}))));
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
    box.append(el("p", {class: "hint zoo-over"}, TC.t("The game is over: the Magic Jury has scored. Undo takes back the last action.")));
    return;
  }
  const me = v.players[p];
  const shapes = (type, key) => match.legal.filter((s) => s.type === type && (!key || key in s));
  /** The creatures a display or a hand swap may bring onto space s: the shape that has it. */
  const cardsFor = (list, s) => (list.find((x) => x.space.includes(s)) || {creature: []}).creature;
  const spacesOf = (list) => [...new Set(list.flatMap((x) => x.space))].sort((a, b) => a - b);
  const act = (body, near) => send({...body, by: p}, near);
  const button = (text, body, near, attrs) => el("button", {type: "button", ...attrs, onclick: () => act(body, near())}, text);

  box.append(el("p", {class: "zoo-turn"}, TC.t("{name}'s turn · round {round}", {name: me.name, round: v.round}),
    v.roll ? " · " + TC.t("Spell Dice: {faces}", {faces: v.roll.faces.join(" · ")}) : ""));

  const display = shapes("display");
  if (display.length) {
    const open = spacesOf(display);
    const key = `${match.id}/${v.round}/${p}`;
    if (!TC.zoo.picked || TC.zoo.picked.key !== key || !open.includes(TC.zoo.picked.space)) TC.zoo.picked = null;
    const left = v.max_displays - v.displays;
    const fs = el("fieldset", {"data-action": "display"}, el("legend", {},
      TC.t("Display on {name}'s portal ({left} more this turn)", {name: me.name, left})));
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
        el("p", {class: "hint"}, picked ? TC.t("Space {space}: which creature?", {space: picked}) : TC.t("Tap an empty space, then the creature.")),
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
    // record allows the player pays for no more. Said from the view's data in the page's
    // language (its no_display is the engine's refusal in English, for every phone).
    // The turn's most: 6 tokens at most, less the Helper's 1, at 2 a display (the engine's
    // no_display says the same in English).
    const most = v.max_displays >= Math.floor((6 - (v.action === "helper" ? 1 : 0)) / 2);
    box.append(el("p", {class: "hint", "data-note": "displays"}, most
      ? TC.t("{name} has displayed {n} elements this turn, the most the Magic Power pays for: each display spends 2 and a player holds at most 6; end the turn", {name: me.name, n: v.displays})
      : TC.t("{name} can hold at most {held} Magic Power now and a display spends 2: no display now; end the turn", {name: me.name, held: me.magic_power})));
  }

  const [roll] = shapes("roll");
  if (roll) {
    const fs = el("fieldset", {"data-action": "roll"}, el("legend", {}, TC.t("Spell Dice (the turn's one action)")));
    const dice = [0, 1, 2].map((i) => el("select", {name: "face", "aria-label": TC.t("Die {number}", {number: i + 1})},
      i ? el("option", {value: ""}, "—") : null, v.dice_faces.map((f) => el("option", {value: f}, f))));
    fs.append(el("div", {class: "row"}, TC.t("The device rolls:"), roll.dice.map((n) => button(`${n}`, {type: "roll", dice: n},
      () => fs, {"aria-label": n === 1 ? TC.t("The device rolls 1 Spell Die") : TC.t("The device rolls {n} Spell Dice", {n}), "data-dice": n}))),
    el("div", {class: "row"}, dice, el("button", {type: "button", "data-table": "", onclick: () => act({type: "roll",
      faces: dice.map((d) => d.value).filter(Boolean)}, fs)}, TC.t("We rolled"))));
    box.append(fs);
  }
  const [column] = shapes("column");
  if (column) {
    const fs = el("fieldset", {"data-action": "column"}, el("legend", {}, TC.t("Cards (the turn's one action)")));
    fs.append(button(TC.t("Take a column or discard"), {type: "column"}, () => fs, {"data-column": ""}));
    box.append(fs);
  }
  const withPlayer = shapes("swap", "player");
  const withHand = shapes("swap", "creature");
  const [helper] = shapes("helper");
  if (withPlayer.length || withHand.length || helper) {
    const fs = el("fieldset", {"data-action": "swap"}, el("legend", {}, TC.t("The Magic Helper (the turn's one action)")));
    if (withPlayer.length) {
      // Only the exchanges the rules allow (a shape per player): both spaces filled, two
      // different creatures.
      const pairs = withPlayer.flatMap((x) => x.space.flatMap((s) => x.player.map((o) => [s, o])))
        .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      const pick = el("select", {name: "pair", "aria-label": TC.t("Space and player to swap with")},
        pairs.map(([s, o]) => el("option", {value: `${s}/${o}`},
          TC.t("space {space}: {mine} ↔ {other}'s {theirs}", {space: s, mine: v.creatures[me.portal[s - 1] - 1],
            other: v.players[o].name, theirs: v.creatures[v.players[o].portal[s - 1] - 1]}))));
      fs.append(el("div", {class: "row"}, pick, el("button", {type: "button", onclick: () => {
        const [s, o] = pick.value.split("/").map(Number);
        act({type: "swap", space: s, player: o}, fs);
      }}, TC.t("Swap (+1 Dark Power)"))));
    }
    if (withHand.length) {
      const space = el("select", {name: "space", "aria-label": TC.t("Space to swap")}, spacesOf(withHand).map((s) =>
        el("option", {value: s}, TC.t("space {space}: {creature}", {space: s, creature: v.creatures[me.portal[s - 1] - 1]}))));
      const card = el("select", {name: "card", "aria-label": TC.t("Creature card from the hand")});
      // The hand cards that space may take: none shown on that space elsewhere, none out of the deck.
      const cards = () => card.replaceChildren(...cardsFor(withHand, Number(space.value)).map((c) =>
        el("option", {value: c}, TC.t("for {creature} from the hand", {creature: v.creatures[c - 1]}))));
      space.onchange = cards;
      cards();
      fs.append(el("div", {class: "row"}, space, card, el("button", {type: "button", onclick: () =>
        act({type: "swap", space: Number(space.value), creature: Number(card.value)}, fs)}, TC.t("Swap"))));
    }
    if (helper) {
      const tricks = {hand: TC.t("A hand card for another player's (+1 Dark Power)"), column: TC.t("A hand card for one from a column")};
      fs.append(el("div", {class: "row"}, helper.trick.map((t) => button(tricks[t], {type: "helper", trick: t},
        () => fs, {"data-trick": t}))));
    }
    box.append(fs);
  }
  if (!roll && v.acted) {
    box.append(el("p", {class: "hint"}, TC.t("The turn's one action (Spell Dice, a column, or the Helper) is spent.")));
  }

  const [dark] = shapes("dark_power");
  // The Helper's hand trick is offered with the Helper; here the penalties.
  const reasons = dark ? dark.reason.filter((r) => r !== "helper") : [];
  if (reasons.length) {
    const fs = el("fieldset", {"data-action": "dark_power"}, el("legend", {},
      TC.t("+1 Dark Power for {name} ({held} of {most})", {name: me.name, held: me.dark_power, most: v.dark_max})));
    fs.append(...reasons.map((r) => button(TC.zoo.REASONS[r], {type: "dark_power", reason: r}, () => fs, {"data-reason": r})));
    box.append(fs);
  }
  const [end] = shapes("end_turn");
  if (end) {
    // In the host's bar at the bottom of the screen (data-bar); a refusal is said there.
    // The name on a line of its own, cut where it is too wide (whole in the title and the
    // button's name): the bar stays two lines tall.
    const words = TC.t("End {name}'s turn", {name: me.name});
    box.append(button([TC.t("End turn"), " ", el("span", {class: "who"}, me.name)], {type: "end_turn"}, () => null,
      {class: "primary", "data-action": "end_turn", "data-bar": "", title: words, "aria-label": words}));
  }
};

/* The host page's parts of Alakazoo (common.js, TC.hosts). */
TC.hosts.alakazoo = {controls: TC.zoo.controls, startForm: TC.zoo.startForm};
