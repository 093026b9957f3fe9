"use strict";
const board = document.getElementById("board");
TC.follow((state) => TC.renderBoard(board, state));
