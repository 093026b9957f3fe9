"use strict";
const board = document.getElementById("board");
const timeline = document.getElementById("timeline");
TC.follow((state) => {
  TC.renderBoard(board, state);
  TC.showTimeline(timeline, "current", state);
});
