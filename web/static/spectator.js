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
  fetch(`/api/players?${query}`).then((r) => (r.ok ? r.json() : null)).then((body) => {
    if (!body || rated !== asked) return;
    ratings.replaceChildren(TC.el("span", {class: "hint"}, "Ratings "), ...m.players.map((n, i) => {
      const r = body.players[i];
      return TC.el("a", {href: `/players/${encodeURIComponent(n)}`, class: "rating"}, `${n} `,
        TC.el("b", {}, r ? `${r.rating.toFixed(1)}${r.provisional ? "*" : ""}` : "new"));
    }));
  }).catch(() => null);
};
TC.follow((state) => {
  TC.renderBoard(board, state, (shown) => { document.title = TC.title(shown); });
  TC.showTimeline(timeline, "current", state);
  showRatings(state);
});
