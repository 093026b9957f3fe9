"""Text that grows with the phone's font size: with the browser's own font size setting at
twice its default, the history's and the simulator's text is twice as large."""

from __future__ import annotations

import json

from tests.e2e.browser_support import ARGS, CHROMIUM, PHONE, require_chromium, shot, start, url

sync_api = require_chromium()

SIZES = {"default": 16, "large": 32}
#: Text of each page: a history row, the simulator's heading, hint and login form.
TEXT = {"history": ["#history .game", "#history .result", "#history .when"],
        "sim": ["h1", ".hint", "#login label", "#login button"]}


def font_sizes(playwright, tmp_path, companion, size: int) -> dict[str, float]:
    """Each TEXT element's font size in px, in a chromium whose font size setting is
    ``size`` (the "Font size" of its settings: a profile preference)."""
    profile = tmp_path / f"profile-{size}"
    (profile / "Default").mkdir(parents=True)
    (profile / "Default" / "Preferences").write_text(json.dumps(
        {"webkit": {"webprefs": {"default_font_size": size}}}))
    context = playwright.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, args=ARGS, viewport=PHONE)
    try:
        page = context.new_page()
        sizes = {}
        for path, selectors in TEXT.items():
            page.goto(url(companion, path))
            sync_api.expect(page.locator(selectors[0]).first).to_be_visible()
            for s in selectors:
                sizes[f"{path} {s}"] = page.locator(s).first.evaluate(
                    "e => parseFloat(getComputedStyle(e).fontSize)")
            # Nothing pushed past the phone's width: no sideways scrolling.
            sizes[f"{path} width"] = page.evaluate("document.documentElement.scrollWidth")
            shot(page, f"font-{size}-{path}")
        return sizes
    finally:
        context.close()


def test_history_and_sim_text_grows_with_the_browser_font_size(playwright, companion, tmp_path):
    start(companion, {"game": "center-court", "players": ["Ann", "Bob"]})
    default = font_sizes(playwright, tmp_path, companion, SIZES["default"])
    large = font_sizes(playwright, tmp_path, companion, SIZES["large"])
    widths = {k: large.pop(k) for k in list(large) if k.endswith("width")}
    assert widths == {f"{path} width": PHONE["width"] for path in TEXT}
    assert {k: v * 2 for k, v in default.items() if not k.endswith("width")} == large, (
        default, large)
