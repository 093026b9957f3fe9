"use strict";
const board = document.getElementById("board");
const timeline = document.getElementById("timeline");
const ratings = document.getElementById("ratings");
/* Each player's rating in this game beside their name (GET /api/players?game=&name=),
   asked again only when the players or the match's result change, not on every point. */
let rated = null;
const showRatings = (state) => {
  const m = state.match;
  const asked = m ? JSON.stringify([m.game, m.players, m.status]) : null;
  if (asked === rated) return;
  rated = asked;
  if (!m) { ratings.replaceChildren(); return; }
  const query = new URLSearchParams([["game", m.game], ...m.players.map((n) => ["name", n])]);
  TC.read(`/api/players?${query}`).then((r) => (r.ok ? r.json() : null)).then((body) => {
    if (!body || rated !== asked) return;
    ratings.replaceChildren(TC.el("span", {class: "hint"}, TC.t("Ratings") + " "), ...m.players.map((n, i) => {
      const r = body.players[i];
      return TC.el("a", {href: `/players/${encodeURIComponent(n)}`, class: "rating"}, `${n} `,
        TC.el("b", {}, r ? `${TC.number(r.rating)}${r.provisional ? "*" : ""}` : TC.t("new")));
    }));
  }).catch(() => null);
};
/* "Undone: point to Bob" when the table takes something back (the state's `undone`, from
   whoever undid: the panel or a host's phone), for UNDONE_MS or until the next change. Not
   for the state the page opened on: that undo is old news. */
const UNDONE_MS = 6000;
const undone = document.getElementById("undone");
let opened = true;
let undoneEnds = null;
const sayUndone = (state) => {
  clearTimeout(undoneEnds);
  const news = !opened && state.undone && state.match
    ? TC.t("Undone: {what}", {what: TC.undoneWords(state.undone, state.match.game)}) : "";
  opened = false;
  undone.hidden = !news;
  undone.textContent = news;
  if (news) undoneEnds = setTimeout(() => { undone.hidden = true; undone.textContent = ""; }, UNDONE_MS);
};
TC.follow((state) => {
  TC.renderBoard(board, state, (shown) => { document.title = TC.title(shown); });
  sayUndone(state);
  TC.showTimeline(timeline, "current", state);
  showRatings(state);
});
