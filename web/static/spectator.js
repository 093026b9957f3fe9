"use strict";
const board = document.getElementById("board");
const timeline = document.getElementById("timeline");
TC.follow((state) => {
  TC.renderBoard(board, state, (shown) => { document.title = TC.title(shown); });
  TC.showTimeline(timeline, "current", state);
});
