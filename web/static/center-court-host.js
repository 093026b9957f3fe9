/* Center Court on the host's phone: the buttons of the legal actions (host.js's
   TC.legalControls) in the game's words, and the Service Die the players rolled. */
"use strict";

(function () {
  const label = (match, shape, card) => {
    if (shape.type === "serve") return TC.t("Serve {card}", {card});
    // A return of card c when the volley is at v takes 1 + |c - v| cards of c.
    if (shape.type === "return") return TC.t("Return {cards}", {cards: Array(1 + Math.abs(card - match.view.volley)).fill(card).join("-")});
    return TC.legalLabel(match, shape, card);
  };

  TC.hosts["center-court"] = {
    controls(box, match, send) {
      let roll = null;
      TC.legalControls(box, match, (body, near) => {
        // A serve of 3 or 4 rolls no die; another takes the die the players rolled, if said.
        if (body.type === "serve" && roll && roll.value && ![3, 4].includes(body.card)) body.roll = Number(roll.value);
        send(body, near);
      }, label);
      const serve = box.querySelector('[data-action="serve"]');
      if (serve) {
        roll = TC.el("select", {id: "roll"}, TC.el("option", {value: ""}, TC.t("the device rolls")),
          [1, 2, 5, 6].map((f) => TC.el("option", {value: f}, TC.t("we rolled {face}", {face: f}))));
        serve.after(TC.el("label", {class: "row"}, TC.t("Service Die:") + " ", roll));
      }
    },
  };
})();
