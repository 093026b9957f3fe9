// i18n: words not marked yet (issue #40)
/* Center Court on the host's phone: the buttons of the legal actions (host.js's
   TC.legalControls) in the game's words, and the Service Die the players rolled. */
"use strict";

(function () {
  const label = (match, shape, card) => {
    if (shape.type === "serve") return `Serve ${card}`;
    // A return of card c when the volley is at v takes 1 + |c - v| cards of c.
    if (shape.type === "return") return `Return ${Array(1 + Math.abs(card - match.view.volley)).fill(card).join("-")}`;
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
        roll = TC.el("select", {id: "roll"}, TC.el("option", {value: ""}, "the device rolls"),
          [1, 2, 5, 6].map((f) => TC.el("option", {value: f}, `we rolled ${f}`)));
        serve.after(TC.el("label", {class: "row"}, "Service Die: ", roll));
      }
    },
  };
})();
