"""The composition root: ``companion run`` wires the core, the drivers and the web here.

Kept outside ``companion/`` so the core never imports hardware or web
libraries; the command line (:mod:`app.cli`) lives here too, and hands ``run`` over
to :mod:`app.runtime`.
"""
