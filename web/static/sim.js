"use strict";
(function () {
  const oled = document.getElementById("oled");
  const panel = document.getElementById("panel");
  const message = document.getElementById("message");
  // The OLED picture follows the frames the simulated display receives.
  const frames = new EventSource("/api/sim/events");
  frames.addEventListener("frame", (e) => { oled.src = `/api/sim/display.png?n=${JSON.parse(e.data)}`; });
  TC.login(document.getElementById("login"), () => { panel.hidden = false; message.textContent = ""; },
    () => { panel.hidden = true; });
  for (const button of panel.querySelectorAll("button[data-button]")) {
    let down = 0;
    button.addEventListener("pointerdown", () => { down = performance.now(); });
    button.addEventListener("pointerup", () => {
      const hold = down > 0 && performance.now() - down >= 500;
      down = 0;
      message.textContent = "";
      TC.post("/api/sim/button", {button: button.dataset.button, hold})
        .catch((err) => { message.textContent = err.message; });
    });
  }
})();
