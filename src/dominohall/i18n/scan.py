"""Find player-facing text that bypasses the catalogs (``python -m dominohall.i18n.scan``).

Scans the web client (``server/static/**/*.js`` and ``*.html``) and the terminal game's
widgets (``tui/*.py``) for literal text a player would read that is not wrapped in
``t()`` / ``tn()`` (JS), ``_()`` / ``ngettext()`` / ``N_()`` (Python) or marked with
``data-i18n`` (HTML), and reports each as ``file:line: text``.

What counts as text: a literal in a place that shows text (``text:``, ``title:``,
``placeholder:``, ``textContent =``, ``say(...)``, a Binding's description, a panel's
``border_title``...), or any literal that reads like words (two words, a capital and
lower-case letters, or closing punctuation) and is not a CSS class list, a Rich style,
an identifier, a URL or a comparison. A literal that is not for players can be marked
on its line with ``i18n: not text`` (``// i18n: not text`` or ``# i18n: not text``).
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
STATIC = PACKAGE / "server" / "static"
TUI = PACKAGE / "tui"
MARK = "i18n: not text"


@dataclass(frozen=True)
class Finding:
    path: Path
    line: int
    text: str

    def __str__(self) -> str:
        try:
            rel = self.path.relative_to(PACKAGE.parent)
        except ValueError:
            rel = self.path
        return f"{rel}:{self.line}: {self.text!r}"


RICH_STYLES = set("""bold dim italic underline reverse blink strike not on none default
black red green yellow blue magenta cyan white bright_black bright_red bright_green
bright_yellow bright_blue bright_magenta bright_cyan bright_white grey gray orange
link overline conceal frame encircle""".split())
WORDY = re.compile(r"[A-Za-z\u00c0-\u024f\u0400-\u04ff]{2,}")


def _static_text(text: str) -> str:
    """The words of a literal, placeholders removed."""
    return re.sub(r"\$\{[^}]*\}|\{[^}]*\}", " ", text)


def reads_like_words(text: str, not_words: set[str]) -> bool:
    s = _static_text(text).strip()
    if not WORDY.search(s):
        return False
    words = re.findall(r"[\w'-]+", s)
    if words and all(w in not_words or w.lower() in RICH_STYLES or w.startswith(("--", "#"))
                     for w in words):
        return False
    if re.fullmatch(r"[\w.:/#?=&%-]+", s) and not re.search(r"[.!?…]$", s):
        # one token: a word only if capitalised like a label ("Draw"), never snake/kebab
        return bool(re.fullmatch(r"[A-Z][a-z]{2,}", s))
    if re.match(r"^(https?:|/|\.|#|\[)", s):
        return False
    return bool(re.search(r"[A-Za-z']{2,}[\s,;:—·-]+[A-Za-z']{2,}", s)
                or re.search(r"[.!?…:]$", s)
                or re.match(r"[A-Z][a-z]", s))


# ---- JavaScript ------------------------------------------------------------------------

_JS_WRAPPERS = {"t", "tn", "tError", "tEvent"}
_JS_SINK_KEYS = {"text", "title", "placeholder", "aria-label", "label", "alt"}
_JS_SINK_CALLS = {"say", "toast", "alert", "confirm", "prompt", "Error"}
_JS_SINK_PROPS = {"textContent", "title", "placeholder", "innerText", "ariaLabel"}
_JS_NOT_TEXT_KEYS = {"class", "id", "type", "role", "href", "method", "name", "value",
                     "rel", "src", "for", "data-target", "data-seat", "data-tile", "key",
                     "credentials", "mode", "kind", "tab", "cls", "style", "transform"}
_JS_NOT_TEXT_PROPS = {"transform", "cssText", "className"}    # CSS, not words
_JS_NOT_TEXT_CALLS = {"getElementById", "querySelector", "querySelectorAll",
                      "addEventListener", "removeEventListener", "createElement",
                      "createElementNS", "setAttribute", "getAttribute", "removeAttribute",
                      "getItem", "setItem", "removeItem", "add", "remove", "toggle",
                      "contains", "closest", "matches", "fetch", "api", "WebSocket",
                      "includes", "startsWith", "endsWith", "split", "join", "replace",
                      "import", "get", "has", "send", "el", "act", "test", "match",
                      "toFixed", "padStart", "Number", "String", "Set", "Map",
                      "replaceState", "pushState", "execCommand", "dispatchEvent",
                      "Event", "CustomEvent", "URL", "URLSearchParams", "require",
                      "matchMedia"}


def _css_words() -> set[str]:
    words: set[str] = set()
    for css in STATIC.rglob("*.css"):
        words |= set(re.findall(r"[.#]([A-Za-z_][\w-]*)", css.read_text(encoding="utf-8")))
    return words


@dataclass
class _Lit:
    line: int
    text: str
    before: str          # the code just before it (same statement)
    frames: tuple[str | None, ...]


def js_literals(src: str) -> list[_Lit]:
    """String and template literals of a JS module, with the calls they sit in."""
    out: list[_Lit] = []
    i, n, line = 0, len(src), 1
    frames: list[str | None] = []
    last_sig = ""                          # last significant token, to tell / from a regex

    def ident_before(pos: int) -> str | None:
        m = re.search(r"([A-Za-z_$][\w$]*)\s*$", src[max(0, pos - 60):pos])
        return m.group(1) if m else None

    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
            i += 1
            continue
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += src.count("\n", i, j)
            i = j
            continue
        if c in "'\"`":
            start_line, j, buf = line, i + 1, []
            depth = 0
            while j < n:
                d = src[j]
                if d == "\\":
                    buf.append(src[j:j + 2])
                    j += 2
                    continue
                if d == "\n":
                    line += 1
                if c == "`" and src.startswith("${", j) and depth == 0:
                    k, depth = j + 2, 1
                    while k < n and depth:          # skip the expression (nested strings too)
                        if src[k] == "{":
                            depth += 1
                        elif src[k] == "}":
                            depth -= 1
                        elif src[k] in "'\"":
                            q = src[k]
                            k += 1
                            while k < n and src[k] != q:
                                k += 2 if src[k] == "\\" else 1
                        k += 1
                    inner = src[j + 2:k - 1]
                    line += inner.count("\n")
                    out.extend(_Lit(start_line, x.text, x.before, tuple(frames) + x.frames)
                               for x in js_literals(inner))
                    buf.append("${" + inner + "}")
                    j, depth = k, 0
                    continue
                if d == c:
                    break
                buf.append(d)
                j += 1
            before = src[max(0, i - 80):i]
            out.append(_Lit(start_line, "".join(buf), before, tuple(frames)))
            i = j + 1
            last_sig = "str"
            continue
        if c == "/" and (last_sig in ("", "(", ",", "=", ":", "[", "!", "&", "|", "?", "{",
                                      "}", ";", "+", "-", "*", "<", ">", "~", "^", "%")
                         or re.search(r"\b(return|typeof|case|in|of)\s*$", src[max(0, i - 10):i])):
            j, in_class = i + 1, False                      # a regex literal
            while j < n and (src[j] != "/" or in_class):
                if src[j] == "\\":
                    j += 1
                elif src[j] == "[":
                    in_class = True
                elif src[j] == "]":
                    in_class = False
                j += 1
            i = j + 1
            last_sig = "re"
            continue
        if c == "(":
            frames.append(ident_before(i))
        elif c == ")" and frames:
            frames.pop()
        if not c.isspace():
            last_sig = c if not (c.isalnum() or c in "_$") else "id"
        i += 1
    return out


def scan_js(path: Path, css: set[str] | None = None) -> list[Finding]:
    src = path.read_text(encoding="utf-8")
    lines = src.splitlines()
    not_words = (css if css is not None else _css_words()) | RICH_STYLES
    found = []
    for lit in js_literals(src):
        text = lit.text
        if not text.strip() or MARK in (lines[lit.line - 1] if lit.line <= len(lines) else ""):
            continue
        if any(f in _JS_WRAPPERS for f in lit.frames):
            continue
        before = lit.before.rstrip()
        key = re.search(r"""["']?([\w-]+)["']?\s*:\s*$""", before)
        prop = re.search(r"\.(\w+)\s*[+]?=\s*$", before)
        call = lit.frames[-1] if lit.frames else None
        first_arg = before.endswith("(")
        if re.search(r"(===|!==|==|!=|\bfrom|\bimport|\bcase)\s*$", before) or \
                re.search(r"^\s*(===|!==)", "") or before.endswith(("[", "in")):
            continue
        if key and key.group(1) in _JS_NOT_TEXT_KEYS:
            continue
        if prop and prop.group(1) in _JS_NOT_TEXT_PROPS:
            continue
        sink = (key and key.group(1) in _JS_SINK_KEYS) or (prop and prop.group(1) in
                                                            _JS_SINK_PROPS) \
            or (call in _JS_SINK_CALLS and first_arg)
        if not sink and (call in _JS_NOT_TEXT_CALLS and first_arg):
            continue
        if not sink and re.search(r"^\s*(===|!==|\?\?)", "".join(lines[lit.line - 1:lit.line])
                                  .split(text, 1)[-1][1:]):
            continue
        if sink and WORDY.search(_static_text(text)):
            found.append(Finding(path, lit.line, text))
        elif reads_like_words(text, not_words):
            found.append(Finding(path, lit.line, text))
    return found


# ---- HTML ------------------------------------------------------------------------------

class _HtmlText(HTMLParser):
    ATTRS = ("title", "placeholder", "aria-label", "alt")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self.stack: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        marked_attrs = set(a.get("data-i18n-attr", "").replace(",", " ").split())
        for name in self.ATTRS:
            if a.get(name) and name not in marked_attrs and WORDY.search(a[name]):
                self.found.append((self.getpos()[0], a[name]))
        if tag in ("meta", "link", "input", "br", "img", "hr"):
            return
        inside = (self.stack[-1][1] if self.stack else False) or "data-i18n" in a \
            or tag in ("script", "style")
        self.stack.append((tag, inside))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if not text or (self.stack and self.stack[-1][1]):
            return
        if self.stack and self.stack[-1][0] == "title" and text.startswith("dominohall"):
            text = text.replace("dominohall", "").strip(" —-")
            if not text:
                return
        if text == "dominohall" or not WORDY.search(text):
            return
        self.found.append((self.getpos()[0], text))


def scan_html(path: Path) -> list[Finding]:
    p = _HtmlText()
    p.feed(path.read_text(encoding="utf-8"))
    return [Finding(path, line, text) for line, text in p.found]


# ---- Python (Textual widgets) ----------------------------------------------------------

_PY_WRAPPERS = {"_", "ngettext", "N_", "gettext", "pgettext", "NP_"}
_PY_SINK_CALLS = {"Static", "Label", "Button", "say", "notify", "update", "Chip",
                  "Checkbox", "RadioButton", "Option", "Tab", "TabPane", "Header", "Footer"}
_PY_NOT_TEXT_KW = {"id", "classes", "style", "group", "name", "key", "action", "variant",
                   "key_display", "tooltip_style", "mode", "thread", "encoding"}
_PY_NOT_TEXT_CALLS = {"query_one", "query", "get", "startswith", "endswith", "split",
                      "join", "replace", "format", "run_worker", "set_interval",
                      "set_timer", "add_class", "remove_class", "has_class", "getattr",
                      "setattr", "isinstance", "open", "Path", "dismiss", "post_message",
                      "action", "call_after_refresh", "rjust", "ljust", "center", "strip",
                      "partition", "Binding", "pick", "index", "count", "pop", "setdefault",
                      "sort_hand", "Style", "parse", "compile", "match", "sub", "search",
                      "fullmatch", "findall", "mount", "remove_children", "focus", "bell",
                      "print", "dict", "list", "set", "tuple", "rstrip", "lstrip"}
_PY_SINK_ATTRS = {"border_title", "border_subtitle", "TITLE", "SUB_TITLE", "title",
                  "sub_title", "placeholder", "tooltip", "label"}


def _joined(node: ast.JoinedStr) -> str:
    parts = []
    for v in node.values:
        if isinstance(v, ast.Constant):
            parts.append(str(v.value))
        else:
            parts.append("{}")
    return "".join(parts)


def scan_python(path: Path) -> list[Finding]:
    src = path.read_text(encoding="utf-8")
    lines = src.splitlines()
    tree = ast.parse(src)
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(body[0].value)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = _joined(node)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if isinstance(parents.get(node), ast.JoinedStr) or node in docstrings:
                continue
            if isinstance(parents.get(node), ast.FormattedValue):
                continue
            text = node.value
        else:
            continue
        if not text.strip() or MARK in lines[node.lineno - 1] or text == "dominohall":
            continue
        verdict = _py_context(node, parents)
        if verdict == "skip":
            continue
        if verdict == "sink":
            if WORDY.search(_static_text(text)) and not all(
                    w.lower() in RICH_STYLES for w in re.findall(r"[\w'-]+", _static_text(text))):
                found.append(Finding(path, node.lineno, text))
        elif reads_like_words(text, RICH_STYLES):
            found.append(Finding(path, node.lineno, text))
    return sorted(found, key=lambda f: f.line)


def _call_name(call: ast.Call) -> str | None:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _py_context(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> str:
    """'skip' (wrapped or not text), 'sink' (shown to the player) or 'maybe'."""
    child, p = node, parents.get(node)
    first = True
    in_tuple = False
    while p is not None:
        if isinstance(p, ast.Call):
            name = _call_name(p)
            if name in _PY_WRAPPERS:
                return "skip"
            if first:
                if child in p.args:
                    idx = p.args.index(child)
                    if name == "Binding":
                        return "sink" if idx == 2 else "skip"
                    if name in ("append", "Text", "Chip") and idx > 0:
                        return "skip"       # the style of Text.append(text, style), an action
                    if in_tuple:
                        return "maybe"
                    if name in _PY_SINK_CALLS or name in ("append", "Text") and idx == 0:
                        return "sink"
                    if name in _PY_NOT_TEXT_CALLS:
                        return "skip"
                else:
                    for kw in p.keywords:
                        if kw.value is child:
                            if kw.arg in _PY_NOT_TEXT_KW:
                                return "skip"
                            if kw.arg in ("description", "placeholder", "title", "label",
                                          "tooltip", "message", "text", "prompt"):
                                return "sink"
        elif isinstance(p, ast.Compare) or isinstance(p, ast.Subscript) and child is p.slice:
            return "skip"
        elif isinstance(p, ast.Dict) and child in p.keys:
            return "skip"
        elif isinstance(p, ast.Assign) and first:
            for target in p.targets:
                name = target.attr if isinstance(target, ast.Attribute) else \
                    target.id if isinstance(target, ast.Name) else None
                if name in _PY_SINK_ATTRS:
                    return "sink"
                if name and (name.isupper() and name.endswith("CSS") or name == "CSS"):
                    return "skip"
        elif isinstance(p, (ast.Raise, ast.Assert)):
            return "skip"                   # errors for the program, not the player
        elif isinstance(p, (ast.FunctionDef, ast.ClassDef, ast.Module)):
            break
        if isinstance(p, ast.Tuple) and p.elts and child is not p.elts[0]:
            in_tuple = True
        if isinstance(p, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__"
                                             for t in p.targets):
            return "skip"
        if not isinstance(p, (ast.IfExp, ast.BoolOp, ast.BinOp, ast.Tuple, ast.List,
                              ast.JoinedStr, ast.FormattedValue)):
            first = False
        child, p = p, parents.get(p)
    return "maybe"


def scan(root: Path = PACKAGE) -> list[Finding]:
    """Every player-facing literal of the web client and the terminal game not wrapped."""
    static, tui = root / "server" / "static", root / "tui"
    css = _css_words()
    found: list[Finding] = []
    for js in sorted(static.rglob("*.js")):
        if js.name == "i18n.js":
            continue
        found += scan_js(js, css)
    for page in sorted(static.rglob("*.html")):
        found += scan_html(page)
    for py in sorted(tui.rglob("*.py")):
        found += scan_python(py)
    return found


def main() -> int:
    found = scan()
    for f in found:
        print(f)
    print(f"{len(found)} player-facing literals bypass the catalogs", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
