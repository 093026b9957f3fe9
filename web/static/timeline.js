/* The match timeline chart (GET /api/timeline, /api/matches/<id>/timeline), drawn as inline
   SVG. Loaded on demand (common.js TC.showTimeline), so the scoreboard's first load stays
   small. One drawing for every game: lines over the match, marks on them, and bars. */
"use strict";
(function () {
  // The page's colours for sides and players, with fallbacks that read in both themes.
  const COLOURS = {"side-0": "var(--side-0, var(--red, #d9484d))", "side-1": "var(--side-1, var(--blue, #3d7fe0))",
    "player-0": "var(--player-0, var(--red, #d9484d))", "player-1": "var(--player-1, var(--blue, #3d7fe0))",
    "player-2": "var(--player-2, #2f9e55)", "player-3": "var(--player-3, #a65fd0)", text: "var(--fg)"};
  const colour = (name) => COLOURS[name] || "var(--dim)";
  // Each mark's glyph and the word for it in the legend.
  const KINDS = {set: ["line", TC.t("set ends")], hit: ["circle", TC.t("hit")],
    catch: ["square", TC.t("catch")], cast: ["diamond", TC.t("cast")],
    final_round: ["line", TC.t("final round begins")], no_return: ["circle", TC.t("no return")],
    declined: ["square", TC.t("declined")], out: ["diamond", TC.t("out")],
    net: ["triangle", TC.t("net")], bad_serve: ["cross", TC.t("bad serve")]};
  /** Refetch the current match's chart at most this often while the table moves. */
  const MIN_GAP_MS = 1500;
  // A phone 320 px wide draws the chart about 290 px wide: 300 units, so its 13-unit labels
  // are read at 12 px at least (issue #25).
  const W = 300, H = 180, LEFT = 30, RIGHT = 10, TOP = 14, BOTTOM = 40;
  let ids = 0;
  // The charts' text: 13 units of the page's sans-serif (timeline.css .tl-chart, .tl-bars),
  // down to 10 for a name that does not fit (16 capitals and "ahead", two such names for
  // a team), then drawn closer.
  const fit = (text, room) => TC.fitText(text, room, {size: 13, smallest: 10});

  const svg = TC.svg;

  function glyph(shape, x, y, fill) {
    const s = 4;
    if (shape === "circle") return svg("circle", {cx: x, cy: y, r: s, fill});
    if (shape === "square") return svg("rect", {x: x - s, y: y - s, width: 2 * s, height: 2 * s, fill});
    if (shape === "diamond") return svg("path", {d: `M${x} ${y - s - 1}l${s + 1} ${s + 1}l${-s - 1} ${s + 1}l${-s - 1} ${-s - 1}z`, fill});
    if (shape === "triangle") return svg("path", {d: `M${x} ${y - s}l${s} ${2 * s}h${-2 * s}z`, fill});
    return svg("path", {d: `M${x - s} ${y - s}l${2 * s} ${2 * s}m0 ${-2 * s}l${-2 * s} ${2 * s}`, stroke: fill, "stroke-width": 2});
  }

  /** The chart's SVG: axes, the balance line (zero), the lines, the marks below them. */
  function lines(chart, titleId, descId) {
    const pts = chart.series.flatMap((s) => s.points);
    const xs = pts.map((p) => p[0]).concat(chart.marks.map((m) => m.x));
    const ys = pts.map((p) => p[1]).concat(0);
    const x0 = Math.min(0, ...xs), x1 = Math.max(x0 + 1, ...xs);
    // A balance chart is even about its zero line, so a lead either way looks its size.
    const even = chart.zero ? Math.max(1, ...ys.map(Math.abs)) : null;
    const y0 = even ? -even : Math.min(...ys), y1 = even || Math.max(y0 + 1, ...ys);
    const px = (x) => LEFT + (x - x0) * (W - LEFT - RIGHT) / (x1 - x0);
    const py = (y) => TOP + (y1 - y) * (H - TOP - BOTTOM) / (y1 - y0);
    const bottom = H - BOTTOM, rug = bottom + 12;
    const parts = [svg("title", {id: titleId}, chart.title), svg("desc", {id: descId}, chart.summary)];
    for (const y of new Set([y0, 0, y1])) {
      parts.push(svg("line", {x1: LEFT, x2: W - RIGHT, y1: py(y), y2: py(y), class: y === 0 ? "tl-zero" : "tl-grid"}),
        svg("text", {x: LEFT - 4, y: py(y) + 4, "text-anchor": "end", class: "tl-tick"}, y));
    }
    parts.push(svg("text", {x: px(x0), y: H - 4, class: "tl-tick"}, x0),
      svg("text", {x: W - RIGHT, y: H - 4, "text-anchor": "end", class: "tl-tick",
        ...fit(`${chart.x_label} ${x1}`, W - RIGHT - LEFT - 20)}, `${chart.x_label} ${x1}`));
    if (chart.zero) {
      // Momentum: the area above the balance line is the first side's, below the other's.
      const clip = `tl-clip-${++ids}`;
      const line = chart.series[0].points;
      const area = `M${px(line[0][0])} ${py(0)}` + line.map(([x, y]) => `L${px(x)} ${py(y)}`).join("") +
        `L${px(line[line.length - 1][0])} ${py(0)}Z`;
      parts.push(svg("defs", {}, svg("clipPath", {id: `${clip}a`}, svg("rect", {x: 0, y: 0, width: W, height: py(0)})),
        svg("clipPath", {id: `${clip}b`}, svg("rect", {x: 0, y: py(0), width: W, height: H}))),
      svg("path", {d: area, fill: colour(chart.zero.above_colour), "fill-opacity": 0.45, "clip-path": `url(#${clip}a)`}),
      svg("path", {d: area, fill: colour(chart.zero.below_colour), "fill-opacity": 0.45, "clip-path": `url(#${clip}b)`}),
      // Each side's note inside the plot, whatever its name's length.
      ...[[TOP + 10, `▲ ${chart.zero.above}`], [bottom - 4, `▼ ${chart.zero.below}`]].map(([y, text]) =>
        svg("text", {x: LEFT + 4, y, class: "tl-note", ...fit(text, W - RIGHT - LEFT - 8)}, text)));
    }
    for (const s of chart.series) {
      parts.push(svg("polyline", {points: s.points.map(([x, y]) => `${px(x)},${py(y)}`).join(" "),
        fill: "none", stroke: colour(s.colour), "stroke-width": 2.5, "stroke-linejoin": "round",
        class: "tl-line"}, svg("title", {}, s.name)));
    }
    for (const m of chart.marks) {
      const [shape] = KINDS[m.kind] || ["circle"];
      const x = px(m.x);
      const node = shape === "line"
        ? svg("line", {x1: x, x2: x, y1: TOP, y2: rug + 4, stroke: colour(m.colour), "stroke-dasharray": "3 3", "stroke-width": 1.5})
        : glyph(shape, x, rug, colour(m.colour));
      parts.push(svg("g", {class: "tl-mark", "data-kind": m.kind}, node, svg("title", {}, m.label)));
    }
    return svg("svg", {viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": `${titleId} ${descId}`,
      class: "tl-chart"}, parts);
  }

  /** Grouped bars: per category, one bar per series, its count written beside it. */
  function bars(chart, titleId) {
    const b = chart.bars;
    const row = 6 + 13 * chart.series.length;
    const h = 18 + b.categories.length * row;
    const most = Math.max(1, ...b.values.flat());
    const parts = [svg("title", {id: titleId}, b.title)];
    parts.push(svg("text", {x: 0, y: 13, class: "tl-note", ...fit(b.title, W)}, b.title));
    b.categories.forEach((cat, c) => {
      const y = 18 + c * row;
      parts.push(svg("text", {x: 96, y: y + row / 2 + 2, "text-anchor": "end", class: "tl-tick",
        ...fit(cat, 96)}, cat));
      chart.series.forEach((s, i) => {
        const v = b.values[i][c];
        const w = v / most * (W - 140);
        parts.push(svg("rect", {x: 102, y: y + i * 13, width: Math.max(w, 1), height: 10, fill: colour(s.colour)},
          svg("title", {}, `${s.name}: ${v} ${cat}`)),
        svg("text", {x: 106 + w, y: y + i * 13 + 10, class: "tl-tick"}, v));
      });
    });
    return svg("svg", {viewBox: `0 0 ${W} ${h}`, role: "img", "aria-labelledby": titleId, class: "tl-bars"}, parts);
  }

  function legend(chart) {
    const kinds = [...new Set(chart.marks.map((m) => m.kind))].filter((k) => KINDS[k]);
    return TC.el("ul", {class: "tl-legend"},
      // SVG, as the page's policy allows no inline style: the colour is an attribute.
      chart.series.map((s) => TC.el("li", {}, svg("svg", {viewBox: "0 0 10 10", class: "tl-glyph", "aria-hidden": "true"},
        svg("rect", {width: 10, height: 10, rx: 2, fill: colour(s.colour)})), s.name)),
      kinds.map((k) => TC.el("li", {}, svg("svg", {viewBox: "-6 -6 12 12", class: "tl-glyph", "aria-hidden": "true"},
        KINDS[k][0] === "line" ? svg("line", {x1: 0, x2: 0, y1: -6, y2: 6, stroke: "var(--fg)", "stroke-dasharray": "3 2"})
          : glyph(KINDS[k][0], 0, 0, "var(--fg)")), KINDS[k][1])));
  }

  function draw(container, chart) {
    const n = ++ids;
    container.replaceChildren(TC.el("figure", {class: "tl", "data-game": chart.game, "data-events": chart.events},
      TC.el("figcaption", {class: "tl-head"}, chart.title),
      lines(chart, `tl-t${n}`, `tl-d${n}`),
      legend(chart),
      chart.bars ? bars(chart, `tl-b${n}`) : null,
      TC.el("p", {class: "tl-summary"}, chart.summary)));
  }

  const failed = (container, text) => container.replaceChildren(TC.el("p", {class: "tl-empty"}, text));

  /**
   * Show a match's timeline in `container`. `source` is "current" (the match on the
   * table: pass the table `state` the page shows, and call again on every new state;
   * the chart is fetched again only when the version moved, at most every MIN_GAP_MS,
   * the latest version always fetched in the end) or a stored match's id.
   */
  function show(container, source, state) {
    if (source !== "current") {
      TC.readJSON(`/api/matches/${encodeURIComponent(source)}/timeline`, {cache: "no-store"})
        .then((body) => draw(container, body))
        .catch((err) => failed(container, err.status ? err.message : TC.t("The timeline could not be loaded.")));
      return;
    }
    const live = container.tcTimeline || (container.tcTimeline = {want: null, have: null, busy: false, last: 0});
    const match = state && state.match;
    container.hidden = !match;
    if (!match) { live.have = live.want = null; container.replaceChildren(); return; }
    live.want = `${state.epoch}:${state.version}`;
    const pull = () => {
      if (live.busy || live.want === live.have) return;
      const wait = live.last + MIN_GAP_MS - Date.now();
      if (wait > 0) { live.busy = true; setTimeout(() => { live.busy = false; pull(); }, wait); return; }
      const asked = live.want;
      live.busy = true;
      live.last = Date.now();
      TC.read("/api/timeline", {cache: "no-store"})
        .then((r) => (r.ok ? r.json().then((chart) => draw(container, chart)) : null))
        .catch(() => null)
        .finally(() => { live.busy = false; live.have = asked; pull(); });
    };
    pull();
  }

  TC.timeline = {show, draw};
})();
