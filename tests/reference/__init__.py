"""Reference models of the games, written from the rulebooks and RULINGS.md only.

Each model is a small, independent reading of the rules: it was written
without looking at the engine's game code, so a differential test that plays
both side by side catches the engine's mistakes instead of repeating them.
Every check cites the rule or ruling it follows.
"""
