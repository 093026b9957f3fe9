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
      me.replaceChildren(TC.el("option", {value: ""}, TC.t("Pick your name")),
        ...[...names].sort((a, b) => a.localeCompare(b, TC.lang)).map((n) => TC.el("option", {value: n}, n)));
      me.value = names.includes(chosen) ? chosen : "";
    }
    $("sub").textContent = `${e.name} · ${NIGHT.roundLine(e)}`;
    const name = me.value;
    $("mine").hidden = !name;
    if (!name) return;
    const line = e.standings.find((s) => s.name === name);
    const standing = line ? TC.t("You are {place} of {of}, points: {points}.", {place: line.place, of: e.standings.length, points: NIGHT.points(line.points)}) : "";
    const game = e.pairings.find((g) => g.players.includes(name));
    let where = "", what = "";
    if (e.finished) {
      // A doubles event is won by a team: each partner is told.
      const won = (e.winners || [e.winner]).includes(name);
      where = won ? TC.t("You won the event!") : TC.t("The event has finished.");
      what = won && e.winners && e.winners.length > 1 ? TC.t("With {names}.", {names: e.winners.filter((n) => n !== name).join(" & ")}) : TC.t("Winner: {name}.", {name: e.winner});
    }
    else if (!game) { where = e.round === 0 ? TC.t("You are checked in.") : TC.t("You are not in this round."); what = TC.t("The director pairs the next round when this one is over."); }
    else if (game.bye) { where = TC.t("A bye this round"); what = TC.t("You get the point without playing."); }
    else {
      // With a partner (doubles, Canadian doubles) or against several (tables of three and four).
      const mine = game.sides && game.sides.length ? game.sides[game.players.indexOf(name)] : null;
      const mates = mine === null ? [] : game.players.filter((n, i) => n !== name && game.sides[i] === mine);
      const others = game.players.filter((n, i) => n !== name && !mates.includes(n));
      const and = (names) => (names.length > 1 ? new Intl.ListFormat(TC.lang).format(names) : names[0]);
      what = mates.length ? TC.t("Round {round} with {partners}, against {opponents}.", {round: game.round, partners: and(mates), opponents: and(others)})
        : TC.t("Round {round} against {opponents}.", {round: game.round, opponents: and(others)});
      where = game.result ? TC.t("Played: {line}", {line: NIGHT.gameLine(game, cards)}) :
        game.table ? TC.t("Table: {table}", {table: NIGHT.tableName(cards, game.table)}) : game.status === "elsewhere" ? TC.t("At a table without a companion: ask the director") : TC.t("Waiting for a free table");
    }
    $("where").textContent = where;
    $("what").textContent = `${what} ${standing}`.trim();
  });
})();
