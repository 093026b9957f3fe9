"use strict";
/* The start form's player suggestions: every known player's name offered in each name
   field (a datalist, most recently played first), and for the chosen game the fairest
   pairing on the leaderboard: the two players whose ratings are closest, one tap to seat
   them. Kept apart from host.js: it only watches the form host.js builds. */
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
  fetch("/api/players").then((r) => (r.ok ? r.json() : null)).then((body) => {
    if (!body) return;
    known = body;
    names.replaceChildren(...body.names.map((n) => TC.el("option", {value: n})));
    suggest();
  }).catch(() => null);
  new MutationObserver(suggest).observe(fields, {childList: true});
  gameBox.addEventListener("change", suggest);
})();
