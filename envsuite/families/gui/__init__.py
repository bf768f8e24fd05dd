"""The ``gui`` family's simulator core (issue 17).

Widgets, themes, a Pillow renderer, an accessibility tree, the action grammar and event
dispatch.

Everything here is pure Python on Pillow and numpy; no env is registered yet. A screen
(:class:`~envsuite.families.gui.screen.Screen`) holds widgets with element ids, bounds,
roles, names and states; :func:`~envsuite.families.gui.renderer.render_screen` draws it,
:func:`~envsuite.families.gui.accessibility.accessibility_tree` describes it,
:func:`~envsuite.families.gui.action_grammar.parse_action_text` reads an agent's action
and :func:`~envsuite.families.gui.events.dispatch` applies it.
"""
