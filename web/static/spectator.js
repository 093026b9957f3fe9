"use strict";
const board = document.getElementById("board");
TC.follow((state) => TC.renderBoard(board, state, (shown) => { document.title = TC.title(shown); }));
