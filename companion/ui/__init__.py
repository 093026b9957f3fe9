"""What panels and OLED frames are built from: keys and bindings (:mod:`.base`),
the canvas and its shipped fonts (:mod:`.canvas`), menus (:mod:`.menus`), the
generic panel (:mod:`.controls`) and the generic frame (:mod:`.oled`).

Each game's ``panel.py`` and ``oled.py`` import these pieces; a game's rules
never do (tests/test_boundaries.py).
"""
