"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const message = $("message");
  let state = TC.initial;
  let games = [];

  const act = (path, body) => {
    message.textContent = "";
    return TC.post(path, body).then((s) => stream.show(s))
      .catch((err) => { message.textContent = err.message; });
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
    box.replaceChildren();
    const match = state.match;
    $("undo").disabled = !(match && match.can_undo);
    $("redo").disabled = !(match && match.can_redo);
    $("end").disabled = !(match && match.status === "active");
    if (!match) return;
    const v = match.view;
    for (const shape of match.legal) {
      const field = Object.keys(shape).find((k) => Array.isArray(shape[k]));
      const row = TC.el("div", {class: "row", "data-action": shape.type});
      for (const value of shape[field]) {
        const label = (describe[shape.type] || ((_, x) => `${shape.type} ${x}`))(v, value);
        row.append(TC.el("button", {type: "button", onclick: () => {
          const body = {type: shape.type, [field]: value};
          const roll = $("roll");
          if (shape.type === "serve" && roll && roll.value && ![3, 4].includes(value)) {
            body.roll = Number(roll.value);
          }
          act("/api/action", body);
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

  /* The start form, from the games' option lists. */
  function renderStart() {
    const game = games.find((g) => g.id === $("game").value) || games[0];
    if (!game) return;
    const current = state.match && state.match.game === game.id ? state.match : null;
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
      o.choices.forEach((c, i) => select.append(TC.el("option",
        {value: i, selected: JSON.stringify(c.value) === JSON.stringify(o.default)}, c.label)));
      options.append(TC.el("label", {}, `${o.label} `, select));
    }
  }

  $("start").addEventListener("submit", (e) => {
    e.preventDefault();
    const game = games.find((g) => g.id === $("game").value);
    const players = [...document.querySelectorAll("#players input")].map((i) => i.value.trim()).filter(Boolean);
    const options = {};
    for (const o of game.options) options[o.key] = o.choices[Number($("options").querySelector(`[name="${o.key}"]`).value)].value;
    act("/api/match", {game: game.id, players, options});
  });
  $("game").addEventListener("change", renderStart);
  $("undo").addEventListener("click", () => act("/api/undo"));
  $("redo").addEventListener("click", () => act("/api/redo"));
  $("end").addEventListener("click", () => {
    if (confirm("End this match? It stays in the history, without a result.")) act("/api/match/end");
  });
  $("logout").addEventListener("click", () => TC.post("/api/logout").then(() => location.reload()));

  let stream = null;
  TC.login($("login"), () => {
    $("host").hidden = false;
    fetch("/api/games").then((r) => r.json()).then((list) => {
      games = list;
      $("game").replaceChildren(...games.map((g) => TC.el("option", {value: g.id}, g.title)));
      renderStart();
    });
    stream = TC.follow((s) => {
      state = s;
      TC.renderBoard($("board"), s);
      renderActions();
    });
  });
})();
