"""Key names: the canonical spelling every key action is turned into.

Agents write keys in several dialects: xdotool's (``Return``, ``BackSpace``, ``Page_Down``,
as Anthropic's computer-use tool asks), Playwright's (``Enter``, ``ArrowDown``), UI-TARS's
lowercase space-separated hotkeys (``ctrl c``). :func:`canonical_key` maps them all onto
one spelling: modifiers first in a fixed order, joined by ``+`` (``ctrl+shift+tab``).
"""

from __future__ import annotations

from envsuite.families.gui.actions import GuiActionError

#: Canonical names of the keys that are not single characters, and their aliases.
KEY_ALIASES: dict[str, str] = {
    "enter": "enter",
    "return": "enter",
    "kp_enter": "enter",
    "tab": "tab",
    "escape": "escape",
    "esc": "escape",
    "backspace": "backspace",
    "back_space": "backspace",
    "delete": "delete",
    "del": "delete",
    "space": "space",
    " ": "space",
    "up": "up",
    "arrowup": "up",
    "down": "down",
    "arrowdown": "down",
    "left": "left",
    "arrowleft": "left",
    "right": "right",
    "arrowright": "right",
    "home": "home",
    "end": "end",
    "pageup": "pageup",
    "page_up": "pageup",
    "prior": "pageup",
    "pagedown": "pagedown",
    "page_down": "pagedown",
    "next": "pagedown",
}
#: Modifier names and their aliases, in the order a canonical chord lists them.
MODIFIERS: dict[str, str] = {
    "ctrl": "ctrl",
    "control": "ctrl",
    "control_l": "ctrl",
    "control_r": "ctrl",
    "alt": "alt",
    "shift": "shift",
    "shift_l": "shift",
    "shift_r": "shift",
    "meta": "meta",
    "cmd": "meta",
    "command": "meta",
    "super": "meta",
    "win": "meta",
}
MODIFIER_ORDER = ("ctrl", "alt", "shift", "meta")
#: Longest key text accepted.
MAX_KEY_CHARS = 40


def canonical_key(text: str) -> str:
    """The canonical name of the key or chord ``text``.

    ``"Return"`` and ``"Enter"`` give ``"enter"``; ``"ctrl c"``, ``"Control+C"`` and
    ``"ctrl-c"`` give ``"ctrl+c"``; a single printable character stands for itself
    (lowercased when a modifier is held).

    Raises:
        GuiActionError: empty, too long, an unknown key name, or only modifiers.
    """
    if not isinstance(text, str) or not text.strip():
        raise GuiActionError("key needs a key name such as 'enter', 'tab' or 'ctrl+a'")
    if len(text) > MAX_KEY_CHARS:
        raise GuiActionError(f"key name longer than {MAX_KEY_CHARS} characters")
    raw = text.strip()
    if len(raw) == 1:
        return KEY_ALIASES.get(raw, raw)
    parts = [part for part in raw.replace("+", " ").replace("-", " ").split(" ") if part]
    if raw.endswith(("+", "-")) and len(raw) > 1:
        parts.append(raw[-1])  # "ctrl++" or "ctrl+-": the last key is the sign itself
    modifiers: set[str] = set()
    keys: list[str] = []
    for part in parts:
        lowered = part.lower()
        if lowered in MODIFIERS:
            modifiers.add(MODIFIERS[lowered])
        elif lowered in KEY_ALIASES:
            keys.append(KEY_ALIASES[lowered])
        elif len(part) == 1 and part.isprintable():
            keys.append(part.lower() if modifiers or len(parts) > 1 else part)
        else:
            known = ", ".join(sorted(set(KEY_ALIASES.values())))
            raise GuiActionError(f"unknown key {part!r} (known: {known}, or one character)")
    if len(keys) != 1:
        raise GuiActionError(f"key {text!r} must name exactly one non-modifier key")
    ordered = [name for name in MODIFIER_ORDER if name in modifiers]
    return "+".join([*ordered, keys[0]])
