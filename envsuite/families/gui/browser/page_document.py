"""The HTML page the browser shows: style sheet, the shipped fonts and the page script.

The page is written once per browser into its profile directory and opened as a file
URL, so ``@font-face`` loads DejaVu Sans from ``envsuite/assets/fonts`` (the simulator's
fonts) without any network. Screens are then loaded into it by ``envsuite.load(model)``;
nothing is navigated again.
"""

from __future__ import annotations

from pathlib import Path

from envsuite.families.gui.theme import BOLD_FONT, REGULAR_FONT

#: The page script (widget semantics and drawing), shipped beside this module.
PAGE_SCRIPT = Path(__file__).with_name("page.js")

STYLE = """
:root { --font-size: 12px; --title-size: 13px; --radius: 4px; }
@font-face { font-family: "EnvsuiteSans"; src: url("__REGULAR__"); font-weight: normal; }
@font-face { font-family: "EnvsuiteSans"; src: url("__BOLD__"); font-weight: bold; }
html, body { margin: 0; padding: 0; overflow: hidden; background: var(--background); }
body { font-family: "EnvsuiteSans"; font-size: var(--font-size); color: var(--text);
  -webkit-font-smoothing: none; user-select: none; cursor: default; }
#sink { position: fixed; left: -1000px; top: 0; width: 10px; height: 10px; opacity: 0; }
#screen { position: absolute; left: 0; top: 0; overflow: hidden; background: var(--background); }
.w { position: absolute; box-sizing: border-box; }
.w.inert, .w.inert * { pointer-events: none; }
.face { position: absolute; inset: 0; overflow: hidden; box-sizing: border-box;
  display: flex; align-items: center; white-space: nowrap; }
.txt { white-space: pre; overflow: hidden; text-overflow: ellipsis; line-height: 1; }
.titlebar, .scrim, .ring, .scrollframe, .popups { pointer-events: none; }
.titlebar { position: absolute; left: 0; top: 0; right: 0; background: var(--title-bar);
  color: var(--title-text); font-weight: bold; font-size: var(--title-size);
  display: flex; align-items: center; padding-left: 8px; box-sizing: border-box; }
.scrim { position: absolute; inset: 0; background: var(--scrim); }
.popups { position: absolute; inset: 0; }
.popups > .w { pointer-events: auto; }
.muted { color: var(--muted-text) !important; }
.label.bold { font-weight: bold; }
.button { justify-content: center; gap: 4px; padding: 0 2px 0 6px; background: var(--surface);
  border: 1px solid var(--border); border-radius: var(--radius); }
.button.primary { background: var(--accent); color: var(--accent-text); }
.button.primary-outline { border-color: var(--accent); }
.icon { display: inline-block; flex: none; background-color: currentColor;
  -webkit-mask-size: 100% 100%; mask-size: 100% 100%; }
.iconbox { justify-content: center; }
.close { justify-content: center; color: var(--title-text); }
.link { color: var(--link); }
.link.visited { color: var(--visited-link); }
.link .txt { text-decoration: underline; }
.field { background: var(--surface); border: 1px solid var(--border);
  border-radius: var(--radius); padding: 0 6px; }
.field.active { border-color: var(--accent); }
.field .inner { position: relative; flex: 1; overflow: hidden; height: 100%;
  display: flex; align-items: center; }
.field .line { display: inline-flex; align-items: center; white-space: pre; }
.hint { color: var(--muted-text); }
.field .inner > .caret { position: absolute; left: 0; }
.caret { display: inline-block; width: 1px; height: calc(var(--font-size) + 2px);
  background: var(--text); flex: none; }
.toggle { gap: 6px; }
.mark { flex: none; width: 14px; height: 14px; box-sizing: border-box; background: var(--surface);
  border: 1px solid var(--border); display: flex; align-items: center; justify-content: center; }
.mark.check { border-radius: 3px; color: var(--accent-text); }
.mark.check.on { background: var(--accent); border-color: var(--accent); }
.mark.radio { border-radius: 50%; }
.mark.radio.on { border: 2px solid var(--accent);
  background: radial-gradient(circle, var(--accent) 0 2.5px, var(--surface) 3px); }
.dropdown { justify-content: space-between; }
.arrow { flex: none; width: 0; height: 0; border-left: 4px solid transparent;
  border-right: 4px solid transparent; border-top: 5px solid currentColor; }
.arrow.up { border-top: none; border-bottom: 5px solid currentColor; }
.option { background: var(--surface); border: 1px solid var(--border); padding-left: 6px; }
.option.selected { background: var(--selection); font-weight: bold; }
.listbox { background: var(--surface); border: 1px solid var(--border); }
.row { padding-left: 6px; border-bottom: 1px solid var(--background); margin: 0 1px; }
.row.selected { background: var(--selection); }
.tabs { border-bottom: 1px solid var(--border); }
.tab { justify-content: center; color: var(--muted-text); }
.tab.selected { color: var(--accent); font-weight: bold;
  box-shadow: inset 0 -3px 0 var(--accent); }
.scrollback { background: var(--background); }
.w[data-kind="scroll"] > .clip { position: absolute; inset: 0; overflow: hidden; }
.scrollframe { position: absolute; inset: 0; border: 1px solid var(--border);
  box-sizing: border-box; }
.thumb { position: absolute; background: var(--border); border-radius: 3px; }
.dialog { background: var(--surface); border: 1px solid var(--border); align-items: flex-start;
  box-shadow: 3px 3px 0 var(--shadow); overflow: visible; }
.dialogbar { position: absolute; left: 0; top: 0; right: 0; background: var(--title-bar);
  color: var(--title-text); font-weight: bold; display: flex; align-items: center;
  padding: 0 24px 0 6px; box-sizing: border-box; }
.ring { position: absolute; left: -1px; top: -1px; right: -1px; bottom: -1px;
  border: 2px solid var(--focus); border-radius: calc(var(--radius) + 1px); }
.ring.ring-square { inset: 0; border-radius: 0; }
.ring.ring-mark { width: 16px; height: 16px; top: calc(50% - 8px); right: auto; bottom: auto; }
"""


def page_html() -> str:
    """The page: style sheet (fonts as file URLs), the input sink, the screen, the script."""
    style = STYLE.replace("__REGULAR__", REGULAR_FONT.as_uri()).replace(
        "__BOLD__", BOLD_FONT.as_uri()
    )
    script = PAGE_SCRIPT.read_text(encoding="utf-8")
    return (
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>envsuite gui</title>"
        f"<style>{style}</style></head><body>"
        "<textarea id='sink' autocomplete='off' spellcheck='false'></textarea>"
        "<div id='screen'></div>"
        f"<script>{script}</script></body></html>"
    )
