/* A player's phone: pick your name, see where you play next. */
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const me = $("me");
  let known = [];
  me.value = "";
  me.addEventListener("change", () => { localStorage.setItem("night-name", me.value); tick(); });
  const tick = NIGHT.follow((e, cards) => {
    $("none").hidden = e !== null;
    $("pick").hidden = e === null;
    if (e === null) return;
    const names = e.players.map((p) => p.name);
    if (names.join("\n") !== known.join("\n")) {
      known = names;
      const chosen = me.value || localStorage.getItem("night-name") || "";
      me.replaceChildren(TC.el("option", {value: ""}, "Pick your name"),
        ...[...names].sort((a, b) => a.localeCompare(b)).map((n) => TC.el("option", {value: n}, n)));
      me.value = names.includes(chosen) ? chosen : "";
    }
    $("sub").textContent = `${e.name} · ${NIGHT.roundLine(e)}`;
    const name = me.value;
    $("mine").hidden = !name;
    if (!name) return;
    const line = e.standings.find((s) => s.name === name);
    const standing = line ? `You are ${line.place} of ${e.standings.length} with ${NIGHT.points(line.points)} point${line.points === 1 ? "" : "s"}.` : "";
    const game = e.pairings.find((g) => g.players.includes(name));
    let where = "", what = "";
    if (e.finished) {
      // A doubles event is won by a team: each partner is told.
      const won = (e.winners || [e.winner]).includes(name);
      where = won ? "You won the event!" : "The event has finished.";
      what = won && e.winners && e.winners.length > 1 ? `With ${e.winners.filter((n) => n !== name).join(" & ")}.` : `Winner: ${e.winner}.`;
    }
    else if (!game) { where = e.round === 0 ? "You are checked in." : "You are not in this round."; what = "The director pairs the next round when this one is over."; }
    else if (game.bye) { where = "A bye this round"; what = "You get the point without playing."; }
    else {
      // With a partner (doubles, Canadian doubles) or against several (tables of three and four).
      const mine = game.sides && game.sides.length ? game.sides[game.players.indexOf(name)] : null;
      const mates = mine === null ? [] : game.players.filter((n, i) => n !== name && game.sides[i] === mine);
      const others = game.players.filter((n, i) => n !== name && !mates.includes(n));
      const and = (names) => (names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0]);
      const other = (mates.length ? `${and(mates)}, ` : "") + `against ${and(others)}`;
      where = game.result ? `Played: ${NIGHT.gameLine(game, cards)}` :
        game.table ? `Table: ${NIGHT.tableName(cards, game.table)}` : game.status === "elsewhere" ? "At a table without a companion: ask the director" : "Waiting for a free table";
      what = `Round ${game.round} ${mates.length ? "with " : ""}${other}.`;
    }
    $("where").textContent = where;
    $("what").textContent = `${what} ${standing}`.trim();
  });
})();
