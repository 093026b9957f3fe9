/* The TV: the round's games with each table's live score, who waits, the standings. */
"use strict";

NIGHT.follow((e, cards) => {
  const $ = (id) => document.getElementById(id);
  $("none").hidden = e !== null;
  if (e === null) return;
  $("title").textContent = e.name;
  $("sub").textContent = `${e.game_title} · ${NIGHT.roundLine(e)}`;
  $("winner").hidden = !e.winner;
  $("winner").textContent = e.winner ? TC.t("Winner: {name}", {name: e.winner}) : "";
  $("games").replaceChildren(...e.pairings.map((g) => TC.el("li", {class: `game st-${g.status}`, "data-id": g.id},
    TC.el("span", {class: "where"}, g.bye ? TC.t("Bye") : g.table ? NIGHT.tableName(cards, g.table) : g.status === "elsewhere" ? TC.t("Table without a companion") : TC.t("No table yet")),
    TC.el("span", {class: "who"}, NIGHT.label(g)),
    TC.el("span", {class: "line"}, NIGHT.gameLine(g, cards)))));
  $("waiting").textContent = e.waiting.length ? TC.t("Not in this round: {names}", {names: e.waiting.join(", ")}) : "";
  NIGHT.standingsRows($("standings").tBodies[0], e.standings, 40);
});
