// envsuite GUI page: draws a screen model as DOM and gives it the simulator's semantics.
//
// The model is the JSON envsuite.families.gui.browser.page_model makes from a Python
// Screen. Real input events (mouse, wheel, keys, text insertion) arrive from the browser;
// the browser's own hit testing picks the element under the pointer, and the handlers
// below apply the same rules as envsuite/families/gui/events.py (dispatch) and the
// widget modules, on the model. Every handled action appends a result; the backend reads
// results, the new event-log entries and the widgets' state with envsuite.take().
"use strict";

const S = {
  model: null,
  index: new Map(),
  results: [],
  newEvents: [],
  down: null,
  moved: false,
  firstTarget: null,
  pointless: false,
};

// ---- the widget tree -------------------------------------------------------------------

function kids(w) {
  switch (w.kind) {
    case "group": case "scroll": case "generic": return w.items;
    case "dialog": return [w.close, ...w.items];
    case "tabs": return [...w.tabs, ...(w.panels[w.active] || [])];
    case "listbox": return w.rows;
    case "radiogroup": return w.buttons;
    default: return [];
  }
}

function everyKid(w) {
  if (w.kind === "tabs") return [...w.tabs, ...w.panels.flat()];
  if (w.kind === "dropdown") return w.optionNodes;
  return kids(w);
}

function link(w, owner) {
  S.index.set(w.id, w);
  if (owner) w.owner = owner;
  const inner = everyKid(w);
  for (const child of inner) link(child, (w.kind === "listbox" || w.kind === "radiogroup" ||
    w.kind === "tabs" || w.kind === "dropdown") ? w : null);
}

const FOCUSABLE = new Set(["button", "link", "text", "checkbox", "radiogroup", "dropdown",
  "listbox", "tabs"]);
function focusable(w) { return FOCUSABLE.has(w.kind) || (w.kind === "generic" && w.focusable); }

function openDialogs() { return S.model.dialogs.filter((d) => d.is_open && d.visible); }

function allWidgets() { return Array.from(S.index.values()); }

function expandedDropdowns() {
  return allWidgets().filter((w) => w.kind === "dropdown" && w.expanded);
}

// ---- placement (a port of placement.place) ---------------------------------------------

function intersect(a, b) {
  const left = Math.max(a.x, b.x), top = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.w, b.x + b.w), bottom = Math.min(a.y + a.h, b.y + b.h);
  if (right <= left || bottom <= top) return null;
  return { x: left, y: top, w: right - left, h: bottom - top };
}

function place() {
  const m = S.model, placed = [], popups = [];
  const whole = { x: 0, y: 0, w: m.width, h: m.height };
  const dialogs = openDialogs();
  let lastModal = -1;
  dialogs.forEach((d, i) => { if (d.modal) lastModal = i; });
  function walk(w, ox, oy, clip, parent, depth, inert) {
    if (!w.visible) return;
    const rect = { x: w.x + ox, y: w.y + oy, w: w.w, h: w.h };
    let visible = null;
    if (clip !== null) {
      const inside = clip.x <= rect.x && clip.y <= rect.y && rect.x + rect.w <= clip.x + clip.w &&
        rect.y + rect.h <= clip.y + clip.h;
      visible = inside ? rect : intersect(rect, clip);
    }
    const item = { w, rect, visible, parent, depth, inert, ox, oy };
    placed.push(item);
    if (w.kind === "dropdown" && w.expanded && w.optionNodes.length) popups.push(item);
    let ix = ox, iy = oy, inner = clip;
    if (w.kind === "scroll") { ix -= w.scroll_x; iy -= w.scroll_y; inner = visible; }
    for (const child of kids(w)) walk(child, ix, iy, inner, w.id, depth + 1, inert);
  }
  for (const w of m.items) walk(w, 0, 0, whole, null, 0, lastModal >= 0);
  dialogs.forEach((d, i) => walk(d, 0, 0, whole, null, 0, i < lastModal));
  for (const owner of popups) {
    for (const option of owner.w.optionNodes) {
      walk(option, owner.ox, owner.oy, whole, owner.w.id, owner.depth + 1, owner.inert);
    }
  }
  return placed;
}

function focusOrder(placed) {
  return placed.filter((p) => focusable(p.w) && p.w.enabled && !p.inert && p.visible !== null);
}

function ancestors(placed, item) {
  const byId = new Map(placed.map((p) => [p.w.id, p]));
  const chain = [item];
  while (chain[chain.length - 1].parent !== null && byId.has(chain[chain.length - 1].parent)) {
    chain.push(byId.get(chain[chain.length - 1].parent));
  }
  return chain;
}

function live(placed, id) {
  if (id === null) return null;
  return placed.find((p) => p.w.id === id && !p.inert) || null;
}

// ---- widget hooks (ports of on_click / on_key / on_text) -------------------------------

function chars(text) { return Array.from(text); }
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|(?! )\p{Zs}/u;

function onText(w, text) {
  const typed = chars(text).filter((ch) => !UNPRINTABLE.test(ch));
  const value = chars(w.value);
  const room = Math.max(w.max_length - value.length, 0);
  const kept = typed.slice(0, room);
  if (!kept.length) return false;
  w.value = [...value.slice(0, w.caret), ...kept, ...value.slice(w.caret)].join("");
  w.caret += kept.length;
  return true;
}

function selectIn(owner, index, field) {
  if (!owner.enabled || owner[field] === index) return false;
  owner[field] = index;
  return true;
}

function scrollBy(w, dx, dy) {
  let right = w.x, bottom = w.y;
  if (w.items.length) {
    right = Math.max(...w.items.map((i) => i.x + i.w));
    bottom = Math.max(...w.items.map((i) => i.y + i.h));
  }
  const width = Math.max(w.content_width || right - w.x, w.w);
  const height = Math.max(w.content_height || bottom - w.y, w.h);
  const nx = Math.min(Math.max(w.scroll_x + dx, 0), width - w.w);
  const ny = Math.min(Math.max(w.scroll_y + dy, 0), height - w.h);
  const moved = nx !== w.scroll_x || ny !== w.scroll_y;
  w.scroll_x = nx; w.scroll_y = ny;
  return moved;
}

function onClick(w) {
  switch (w.kind) {
    case "button": w.activations += 1; return true;
    case "link": w.visited = true; return true;
    case "text": { const moved = w.caret !== chars(w.value).length; w.caret = chars(w.value).length; return moved; }
    case "checkbox": w.checked = !w.checked; return true;
    case "radio": return selectIn(w.owner, w.index, "selected");
    case "row": return selectIn(w.owner, w.index, "selected");
    case "tab": return selectIn(w.owner, w.index, "active");
    case "option": {
      const d = w.owner, changed = d.selected !== w.index || d.expanded;
      d.selected = w.index; d.expanded = false; return changed;
    }
    case "dropdown": w.expanded = !w.expanded; return true;
    default: return false;
  }
}

function onKey(w, key) {
  switch (w.kind) {
    case "button":
      if (key === "enter" || key === "space") { w.activations += 1; return true; }
      return false;
    case "link": if (key === "enter") { w.visited = true; return true; } return false;
    case "checkbox": if (key === "space") { w.checked = !w.checked; return true; } return false;
    case "text": return textKey(w, key);
    case "radiogroup": {
      if (!w.options.length || !["up", "down", "left", "right"].includes(key)) return false;
      const step = key === "up" || key === "left" ? -1 : 1;
      const start = w.selected === null ? (step === 1 ? -1 : 0) : w.selected;
      const n = w.options.length;
      return selectIn(w, (((start + step) % n) + n) % n, "selected");
    }
    case "dropdown": {
      if (key === "enter" || key === "space") { w.expanded = !w.expanded; return true; }
      if (key === "escape" && w.expanded) { w.expanded = false; return true; }
      if ((key === "up" || key === "down") && w.options.length) {
        let index;
        if (w.selected === null) index = key === "down" ? 0 : w.options.length - 1;
        else index = Math.min(Math.max(w.selected + (key === "down" ? 1 : -1), 0), w.options.length - 1);
        const changed = index !== w.selected;
        w.selected = index;
        return changed;
      }
      return false;
    }
    case "listbox": {
      if (!w.items.length) return false;
      if (key === "enter" && w.selected !== null) { w.opened = w.selected; return true; }
      if (key !== "up" && key !== "down") return false;
      if (w.selected === null) return selectIn(w, key === "down" ? 0 : w.items.length - 1, "selected");
      const next = Math.min(Math.max(w.selected + (key === "down" ? 1 : -1), 0), w.items.length - 1);
      return selectIn(w, next, "selected");
    }
    case "tabs": {
      if ((key !== "left" && key !== "right") || !w.labels.length) return false;
      const n = w.labels.length, step = key === "right" ? 1 : -1;
      return selectIn(w, (((w.active + step) % n) + n) % n, "active");
    }
    case "scroll": {
      const page = Math.max(w.h - 20, 10);
      if (key === "pagedown") return scrollBy(w, 0, page);
      if (key === "pageup") return scrollBy(w, 0, -page);
      return false;
    }
    default: return false;
  }
}

function textKey(w, key) {
  const value = chars(w.value), before = w.value + "|" + w.caret;
  if (key === "backspace" && w.caret > 0) {
    value.splice(w.caret - 1, 1); w.value = value.join(""); w.caret -= 1;
  } else if (key === "delete") {
    value.splice(w.caret, 1); w.value = value.join("");
  } else if (key === "ctrl+backspace") { w.value = ""; w.caret = 0; }
  else if (key === "left") w.caret = Math.max(w.caret - 1, 0);
  else if (key === "right") w.caret = Math.min(w.caret + 1, value.length);
  else if (key === "home") w.caret = 0;
  else if (key === "end") w.caret = value.length;
  else if (key === "space") return onText(w, " ");
  else if (chars(key).length === 1) return onText(w, key);
  return w.value + "|" + w.caret !== before;
}

// ---- dispatch (a port of events.dispatch) ----------------------------------------------

function result(changed, target, note, navigation) {
  return { changed: !!changed, target: target === undefined ? null : target, note: note || "",
    navigation: navigation || null };
}

function log(kind, id) { S.model.log_length += 1; S.newEvents.push([kind, id]); }

function setFocus(id) { const changed = S.model.focus !== id; S.model.focus = id; return changed; }

function afterActivation(placed, item) {
  const w = item.w;
  if (w.kind !== "button" && w.kind !== "link") return;
  log("activate", w.id);
  if (w.kind === "button" && w.dismisses) {
    const dialog = ancestors(placed, item).find((p) => p.w.kind === "dialog");
    if (dialog && dialog.w.is_open) { dialog.w.is_open = false; log("close", dialog.w.id); }
  }
}

function click(placed, topId) {
  const top = topId === null ? null : live(placed, topId);
  const lists = expandedDropdowns();
  if (lists.length && (top === null || !(top.w.kind === "option" || top.w.kind === "dropdown"))) {
    lists.forEach((d) => { d.expanded = false; });
    return result(true, null, "the click closed the open list");
  }
  if (top === null) return result(setFocus(null), null, "nothing is there");
  const chain = ancestors(placed, top);
  const focus = chain.find((p) => focusable(p.w));
  let changed = setFocus(focus ? focus.w.id : null);
  const w = top.w;
  if (!chain.every((p) => p.w.enabled)) return result(changed, w.id, `'${w.id}' is disabled`);
  if (onClick(w)) { changed = true; afterActivation(placed, top); }
  return result(changed, w.id, "");
}

function typeText(placed, text) {
  const item = live(placed, S.model.focus);
  if (item === null) return result(false, null, "no widget has focus");
  const w = item.w;
  if (w.kind !== "text") return result(false, w.id, `'${w.id}' takes no text`);
  if (!w.enabled) return result(false, w.id, `'${w.id}' is disabled`);
  return result(onText(w, text), w.id, "");
}

function closePopup() {
  const lists = expandedDropdowns();
  if (lists.length) {
    lists.forEach((d) => { d.expanded = false; });
    return result(true, lists[lists.length - 1].id, "");
  }
  const dialogs = openDialogs();
  if (dialogs.length) {
    const top = dialogs[dialogs.length - 1];
    top.is_open = false;
    log("close", top.id);
    return result(true, top.id, "");
  }
  return null;
}

function pressKey(placed, key) {
  if (key === "tab" || key === "shift+tab") {
    expandedDropdowns().forEach((d) => { d.expanded = false; });
    const order = focusOrder(place());
    if (!order.length) return result(false, null, "nothing can take focus");
    const ids = order.map((p) => p.w.id), step = key === "shift+tab" ? -1 : 1;
    let index;
    if (ids.includes(S.model.focus)) {
      index = (((ids.indexOf(S.model.focus) + step) % ids.length) + ids.length) % ids.length;
    } else index = step === 1 ? 0 : ids.length - 1;
    return result(setFocus(ids[index]), ids[index], "");
  }
  if (key === "escape") {
    const focused = live(placed, S.model.focus);
    if (focused === null || focused.w.kind !== "dropdown" || !focused.w.expanded) {
      const closed = closePopup();
      if (closed !== null) return closed;
    }
  }
  const item = live(placed, S.model.focus);
  if (item === null) return result(false, null, "no widget has focus");
  const w = item.w;
  if (!w.enabled) return result(false, w.id, `'${w.id}' is disabled`);
  if ((key === "pageup" || key === "pagedown") && w.kind !== "scroll") {
    const box = ancestors(placed, item).find((p) => p.w.kind === "scroll");
    if (!box) return result(false, w.id, "nothing to page through");
    return result(onKey(box.w, key), box.w.id, "");
  }
  if (w.kind === "text" && key === "enter") { log("submit", w.id); return result(true, w.id, ""); }
  const changed = onKey(w, key);
  if (changed) afterActivation(placed, item);
  return result(changed, w.id, "");
}

function containerAround(placed, topId) {
  const top = topId === null ? null : live(placed, topId);
  if (top === null) return null;
  return ancestors(placed, top).find((p) => p.w.kind === "scroll") || null;
}

function wheel(placed, topId, dx, dy) {
  let box;
  if (!S.pointless) box = containerAround(placed, topId);
  else {
    const focused = live(placed, S.model.focus);
    const around = focused === null ? [] : ancestors(placed, focused);
    box = around.find((p) => p.w.kind === "scroll") ||
      placed.find((p) => p.w.kind === "scroll" && !p.inert && p.visible !== null) || null;
  }
  S.pointless = false;
  if (!box) return result(false, null, "nothing there scrolls");
  const moved = scrollBy(box.w, dx, dy);
  return result(moved, box.w.id, moved ? "" : "already at the end");
}

function drag(placed, topId, x, y, ex, ey) {
  const box = containerAround(placed, topId);
  if (!box) return result(false, null, "nothing there can be dragged");
  const moved = scrollBy(box.w, x - ex, y - ey);
  return result(moved, box.w.id, moved ? "" : "already at the end");
}

function finish(res) {
  if (res.changed && S.model.focus !== null && live(place(), S.model.focus) === null) {
    S.model.focus = null;
  }
  S.results.push(res);
  render();
  return res;
}

// ---- input events ----------------------------------------------------------------------

function targetId(event) {
  const node = event.target && event.target.closest ? event.target.closest("[data-eid]") : null;
  return node ? node.dataset.eid : null;
}

function canonicalKey(event) {
  const names = { Enter: "enter", Tab: "tab", Escape: "escape", Backspace: "backspace",
    Delete: "delete", " ": "space", ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left",
    ArrowRight: "right", Home: "home", End: "end", PageUp: "pageup", PageDown: "pagedown" };
  let key = names[event.key];
  if (key === undefined) {
    if (chars(event.key).length !== 1) return null;
    key = event.key;
  }
  const mods = [];
  if (event.ctrlKey) mods.push("ctrl");
  if (event.altKey) mods.push("alt");
  if (event.shiftKey) mods.push("shift");
  if (event.metaKey) mods.push("meta");
  if (mods.length && chars(key).length === 1) key = key.toLowerCase();
  return [...mods, key].join("+");
}

function install() {
  const root = document.getElementById("screen");
  const sink = document.getElementById("sink");
  root.addEventListener("mousedown", (event) => {
    event.preventDefault();
    S.down = { x: event.clientX, y: event.clientY, id: targetId(event) };
    S.moved = false;
  });
  document.addEventListener("mousemove", (event) => {
    if (S.down && event.buttons && (event.clientX !== S.down.x || event.clientY !== S.down.y)) {
      S.moved = true;
    }
  });
  document.addEventListener("mouseup", (event) => {
    if (!S.down) return;
    const down = S.down;
    S.down = null;
    if (S.moved) {
      finish(drag(place(), down.id, down.x, down.y, Math.round(event.clientX), Math.round(event.clientY)));
      return;
    }
    const res = click(place(), down.id);
    if (event.detail >= 2) {
      // The second click of a double click: a list row under it (or under the first
      // click, when the second hit nothing) is opened, as events.dispatch does.
      const target = res.target !== null ? res.target : S.firstTarget;
      const w = target === null ? null : S.index.get(target);
      if (w && w.kind === "row") { w.owner.opened = w.index; res.changed = true; }
    }
    S.firstTarget = res.target;
    finish(res);
  });
  root.addEventListener("wheel", (event) => {
    event.preventDefault();
    finish(wheel(place(), targetId(event), Math.round(event.deltaX), Math.round(event.deltaY)));
  }, { passive: false });
  document.addEventListener("keydown", (event) => {
    event.preventDefault();
    const key = canonicalKey(event);
    if (key !== null) finish(pressKey(place(), key));
  });
  sink.addEventListener("beforeinput", (event) => {
    event.preventDefault();
    if (event.data) finish(typeText(place(), event.data));
  });
  sink.focus();
}

// ---- drawing ---------------------------------------------------------------------------

function el(tag, cls, parent) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (parent) parent.appendChild(node);
  return node;
}

function box(node, rect, parentRect) {
  node.style.left = `${rect.x - parentRect.x}px`;
  node.style.top = `${rect.y - parentRect.y}px`;
  node.style.width = `${rect.w}px`;
  node.style.height = `${rect.h}px`;
}

function textSpan(parent, text, cls) {
  const span = el("span", "txt" + (cls ? " " + cls : ""), parent);
  span.textContent = text;
  return span;
}

function iconNode(parent, shape, side) {
  const url = S.model.icons[`${shape}/${side}`];
  const node = el("span", "icon", parent);
  node.style.width = node.style.height = `${side}px`;
  if (url) { node.style.webkitMaskImage = `url(${url})`; node.style.maskImage = `url(${url})`; }
  return node;
}

function face(w, node, focused) {
  const f = el("div", "face", node);
  const disabled = !w.enabled;
  switch (w.kind) {
    case "label":
      f.classList.add("label");
      if (w.bold) f.classList.add("bold");
      if (w.muted || disabled) f.classList.add("muted");
      textSpan(f, w.text);
      break;
    case "button": {
      if (w.close) {
        f.classList.add("close");
        iconNode(f, "close", Math.max(w.w - 8, 1));
        break;
      }
      f.classList.add("button");
      if (w.primary && !disabled) f.classList.add("primary");
      if (w.primary) f.classList.add("primary-outline");
      if (disabled) f.classList.add("muted");
      const label = w.icon === null || w.w > w.h + 8 ? w.name : "";
      if (w.icon !== null) iconNode(f, w.icon, Math.min(w.h - 8, 16));
      if (label) textSpan(f, label);
      break;
    }
    case "link":
      f.classList.add("link");
      if (w.visited) f.classList.add("visited");
      if (disabled) f.classList.add("muted");
      textSpan(f, w.name);
      break;
    case "icon":
      f.classList.add("iconbox");
      if (disabled) f.classList.add("muted");
      iconNode(f, w.shape, Math.min(w.w, w.h));
      break;
    case "text": textFace(w, f, focused); break;
    case "checkbox": {
      f.classList.add("toggle");
      if (disabled) f.classList.add("muted");
      const mark = el("span", "mark check" + (w.checked ? " on" : ""), f);
      if (w.checked) iconNode(mark, "check", 12);
      textSpan(f, w.name);
      break;
    }
    case "radio": {
      f.classList.add("toggle");
      if (disabled || !w.owner.enabled) f.classList.add("muted");
      el("span", "mark radio" + (w.owner.selected === w.index ? " on" : ""), f);
      textSpan(f, w.name);
      break;
    }
    case "dropdown": {
      f.classList.add("field", "dropdown");
      if (focused || w.expanded) f.classList.add("active");
      const chosen = w.selected === null ? null : w.options[w.selected];
      textSpan(f, chosen === null ? w.placeholder : chosen, chosen === null ? "hint" : "");
      el("span", "arrow" + (w.expanded ? " up" : ""), f);
      break;
    }
    case "option":
      f.classList.add("option");
      if (w.owner.selected === w.index) f.classList.add("selected");
      textSpan(f, w.name);
      break;
    case "listbox": f.classList.add("listbox"); break;
    case "row":
      f.classList.add("row");
      if (w.owner.selected === w.index) f.classList.add("selected");
      textSpan(f, w.name);
      break;
    case "tabs": f.classList.add("tabs"); break;
    case "tab":
      f.classList.add("tab");
      if (w.owner.active === w.index) f.classList.add("selected");
      textSpan(f, w.name);
      break;
    case "scroll": f.classList.add("scrollback"); break;
    case "dialog": {
      f.classList.add("dialog");
      const bar = el("div", "dialogbar", f);
      bar.style.height = `${S.model.dialog_bar}px`;
      textSpan(bar, w.name);
      break;
    }
    default: break;
  }
  if (focused) {
    const ring = el("div", "ring", node);
    if (w.kind === "checkbox") ring.classList.add("ring-mark");
    if (w.kind === "listbox") ring.classList.add("ring-square");
  }
}

function textFace(w, f, focused) {
  f.classList.add("field");
  if (focused) f.classList.add("active");
  const inner = el("div", "inner", f);
  const shown = w.password ? "\u2022".repeat(chars(w.value).length) : w.value;
  if (!shown) {
    if (focused) el("span", "caret", inner);
    if (w.placeholder) textSpan(inner, w.placeholder, "hint");
    return;
  }
  const all = chars(shown);
  const line = el("span", "line", inner);
  textSpan(line, all.slice(0, w.caret).join(""));
  if (focused) el("span", "caret", line);
  textSpan(line, all.slice(w.caret).join(""));
}

function drawWidget(item, parentNode, parentRect, focusId) {
  const w = item.w;
  const node = el("div", "w", parentNode);
  node.dataset.eid = w.id;
  node.dataset.kind = w.kind;
  box(node, item.rect, parentRect);
  if (item.inert) node.classList.add("inert");
  face(w, node, focusId === w.id && !item.inert);
  return node;
}

function fitButtonLabels() {
  // An icon button's label is left out when it does not fit beside the icon, as the
  // simulator's painter leaves it out.
  for (const label of document.querySelectorAll(".button .icon + .txt")) {
    if (label.scrollWidth > label.clientWidth) label.style.display = "none";
  }
}

function fixCarets() {
  for (const inner of document.querySelectorAll(".field .inner")) {
    const caret = inner.querySelector(".caret"), line = inner.querySelector(".line");
    if (!caret || !line) continue;
    const overflow = caret.offsetLeft + 2 - inner.clientWidth;
    if (overflow > 0) line.style.transform = `translateX(${-overflow}px)`;
  }
}

function scrollBars(node, w) {
  let right = w.x, bottom = w.y;
  if (w.items.length) {
    right = Math.max(...w.items.map((i) => i.x + i.w));
    bottom = Math.max(...w.items.map((i) => i.y + i.h));
  }
  const width = Math.max(w.content_width || right - w.x, w.w);
  const height = Math.max(w.content_height || bottom - w.y, w.h);
  const over = el("div", "scrollframe", node);
  if (height > w.h) {
    const track = w.h - 4, thumb = Math.max(Math.floor(track * w.h / height), 12);
    const top = 2 + Math.floor((track - thumb) * w.scroll_y / Math.max(height - w.h, 1));
    const bar = el("div", "thumb", over);
    Object.assign(bar.style, { left: `${w.w - 8}px`, top: `${top}px`, width: "6px", height: `${thumb}px` });
  }
  if (width > w.w) {
    const track = w.w - 4, thumb = Math.max(Math.floor(track * w.w / width), 12);
    const left = 2 + Math.floor((track - thumb) * w.scroll_x / Math.max(width - w.w, 1));
    const bar = el("div", "thumb", over);
    Object.assign(bar.style, { left: `${left}px`, top: `${w.h - 8}px`, width: `${thumb}px`, height: "6px" });
  }
}

function render() {
  const m = S.model, root = document.getElementById("screen");
  root.textContent = "";
  root.style.width = `${m.width}px`;
  root.style.height = `${m.height}px`;
  if (m.title) {
    const bar = el("div", "titlebar", root);
    bar.style.height = `${m.title_height}px`;
    textSpan(bar, m.title);
  }
  const placed = place();
  const nodes = new Map();
  const whole = { x: 0, y: 0, w: m.width, h: m.height };
  let scrimDone = false;
  const anyInert = placed.some((p) => p.inert);
  const popupLayer = [];
  for (const item of placed) {
    const parentItem = item.parent === null ? null : nodes.get(item.parent);
    const isPopup = item.w.kind === "option";
    if (!item.inert && !scrimDone && anyInert && item.parent === null) {
      el("div", "scrim", root);
      scrimDone = true;
    }
    let parentNode = root, parentRect = whole;
    if (isPopup) {
      let layer = popupLayer[0];
      if (!layer) { layer = el("div", "popups", root); popupLayer.push(layer); }
      parentNode = layer;
    } else if (parentItem) {
      parentNode = parentItem.inner;
      parentRect = parentItem.rect;
    }
    const node = drawWidget(item, parentNode, parentRect, m.focus);
    let inner = node;
    if (item.w.kind === "scroll") {
      inner = el("div", "clip", node);
    }
    nodes.set(item.w.id, { node, inner, rect: item.rect });
  }
  for (const item of placed) {
    if (item.w.kind === "scroll") scrollBars(nodes.get(item.w.id).node, item.w);
  }
  fixCarets();
  fitButtonLabels();
}

// ---- the backend's entry points --------------------------------------------------------

function load(model) {
  S.model = model;
  S.index = new Map();
  S.results = [];
  S.newEvents = [];
  S.down = null;
  S.firstTarget = null;
  S.pointless = false;
  for (const w of [...model.items, ...model.dialogs]) link(w, null);
  document.documentElement.style.setProperty("--bg", model.theme.background);
  for (const [name, value] of Object.entries(model.theme)) {
    document.documentElement.style.setProperty(`--${name.replace(/_/g, "-")}`, value);
  }
  document.documentElement.style.setProperty("--font-size", `${model.font_size}px`);
  document.documentElement.style.setProperty("--title-size", `${model.title_size}px`);
  document.documentElement.style.setProperty("--radius", `${model.radius}px`);
  render();
  document.getElementById("sink").focus();
  return true;
}

const MUTABLE = {
  text: ["value", "caret"], checkbox: ["checked"], radiogroup: ["selected"],
  dropdown: ["selected", "expanded"], listbox: ["selected", "opened"], tabs: ["active"],
  scroll: ["scroll_x", "scroll_y"], dialog: ["is_open"], button: ["activations"],
  link: ["visited"],
};

function take() {
  const widgets = {};
  for (const w of S.index.values()) {
    const fields = MUTABLE[w.kind];
    if (!fields) continue;
    widgets[w.id] = Object.fromEntries(fields.map((f) => [f, w[f]]));
  }
  const out = { focus: S.model.focus, events: S.newEvents, results: S.results, widgets };
  S.newEvents = [];
  S.results = [];
  S.pointless = false; // a wheel turned by zero may never arrive: the aim ends with the action
  return JSON.stringify(out);
}

function back() {
  const closed = closePopup();
  if (closed === null) return false;
  finish(closed);
  return true;
}

// A chord the browser keeps for itself (closing the tab) is handed over by name.
function reservedKey(name) { finish(pressKey(place(), name)); return true; }

window.envsuite = { load, take, back, reservedKey, aimNextWheel: () => { S.pointless = true; } };
install();
