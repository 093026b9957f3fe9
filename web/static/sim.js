"use strict";
/* The simulator: the OLED as the Pi shows it and the panel's buttons. A button is
   pressed by pointer (a press held past HOLD_MS is a hold), or by keyboard: Enter taps,
   Space held past HOLD_MS holds (its real keydown-to-keyup time, as for the pointer). */
(function () {
  const HOLD_MS = 500;
  const oled = document.getElementById("oled");
  const panel = document.getElementById("panel");
  const message = document.getElementById("message");
  // The OLED picture follows the frames the simulated display receives; a stream the
  // server refused or lost for good is opened again.
  const frames = () => {
    const source = new EventSource("/api/sim/events");
    source.addEventListener("frame", (e) => { oled.src = `/api/sim/display.png?n=${JSON.parse(e.data)}`; });
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED) setTimeout(frames, 3000);
    });
  };
  frames();
  // The seat buttons say whose seat they are (seat 1 is player 1); the follow also
  // shows the page's offline notice while the companion cannot be reached.
  // A press that got no answer is said in words (never the browser's "Failed to fetch"),
  // until the companion is heard again.
  let unanswered = false;
  let wasOnline = true;  // what the stream said last
  TC.follow((state) => {
    const players = state.match ? state.match.players : [];
    for (const seat of panel.querySelectorAll("button[data-seat]")) {
      const name = players[Number(seat.dataset.seat) - 1];
      const n = seat.dataset.seat;
      // The name on a line of its own (isolated: a right-to-left name never reorders
      // the seat's words), so a 16-capital name fits a phone's width unbroken.
      seat.replaceChildren(TC.t("Seat {n}", {n}),
        ...(name ? [" ", TC.el("bdi", {class: "seat-name"}, name)] : []));
    }
  }, (online) => {
    // Back after being away: the press that got no answer is said no more. Only on the
    // way back (the stream says online at every message, and a press refused by a
    // broken route must stay said while the stream still runs).
    if (online && !wasOnline && unanswered) { unanswered = false; message.textContent = ""; }
    wasOnline = online;
  });
  TC.login(document.getElementById("login"), () => { panel.hidden = false; message.textContent = ""; },
    () => { panel.hidden = true; });
  const press = (button, hold) => {
    message.textContent = "";
    TC.post("/api/sim/button", {button: button.dataset.button, hold})
      .catch((err) => {
        unanswered = err.status === undefined;
        message.textContent = unanswered
          ? TC.t("The companion is not answering (is it running?): this press was not made. Press again once it is back.")
          : err.message;
      });
  };
  for (const button of panel.querySelectorAll("button[data-button]")) {
    let down = 0;  // when the pointer or Space went down; 0: not down
    const release = () => {
      if (!down) return;
      const hold = performance.now() - down >= HOLD_MS;
      down = 0;
      press(button, hold);
    };
    button.addEventListener("pointerdown", () => { down = performance.now(); });
    button.addEventListener("pointerup", release);
    button.addEventListener("pointercancel", () => { down = 0; });
    button.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      e.preventDefault();  // no click as well: the press is made here
      if (e.repeat) return;  // a key held down repeats: one press
      if (e.key === "Enter") press(button, false);
      else down = performance.now();
    });
    button.addEventListener("keyup", (e) => {
      if (e.key !== " ") return;
      e.preventDefault();
      release();
    });
    button.addEventListener("blur", () => { down = 0; });  // focus left mid-press: nothing
  }
})();
