#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
Lints an HTML report of rtready: html-lint.py PAGE...

- The page parses as HTML5 without a single parse error (html5lib, strict).
- No external resource: no src attribute, no link off the page, no url()
  but data: in a style, no <link>, <iframe>, <object> or <embed>.
- Accessible names: every <svg> that is not aria-hidden has role img or
  group and a name (a <title> as its first child, or aria-label); every link
  has a name (text, title or aria-label); every <details> has a <summary>
  with text; every <table> has header cells; every button has text.
- Ids are unique and every in-page link (href="#x", <use href="#x">) has
  its target.
- A sortable table has the same number of cells in every body row, and
  each heading's data-col is a column of it.

Prints one line per problem and exits 1 if there was any, 0 otherwise.
"""
import re
import sys

import html5lib

NS = {"h": "http://www.w3.org/1999/xhtml", "s": "http://www.w3.org/2000/svg"}
SVG = "{%s}" % NS["s"]
HTML = "{%s}" % NS["h"]


def local(tag):
    return tag.split("}", 1)[-1] if isinstance(tag, str) else ""


def text_of(el):
    return "".join(el.itertext()).strip()


def lint(path):
    problems = []

    def bad(msg):
        problems.append("%s: %s" % (path, msg))

    with open(path, "rb") as f:
        data = f.read()
    parser = html5lib.HTMLParser(strict=False, namespaceHTMLElements=True)
    doc = parser.parse(data)
    for pos, code, vars_ in parser.errors:
        bad("parse error at line %d col %d: %s %s" % (pos[0], pos[1], code, vars_ or ""))

    ids = {}
    for el in doc.iter():
        i = el.get("id")
        if i is not None:
            if i in ids:
                bad("duplicate id %r" % i)
            ids[i] = el

    for el in doc.iter():
        tag = local(el.tag)
        if tag in ("link", "iframe", "object", "embed", "img", "audio", "video", "source"):
            bad("external-resource element <%s>" % tag)
        if el.get("src") is not None:
            bad("<%s src=%r>" % (tag, el.get("src")))
        href = el.get("href")
        if href is not None:
            if not href.startswith("#"):
                bad("<%s href=%r> leaves the page" % (tag, href))
            elif href[1:] not in ids:
                bad("<%s href=%r> has no target" % (tag, href))
        style = el.get("style") or (el.text if tag == "style" else "") or ""
        for url in re.findall(r"url\(\s*['\"]?([^'\")]*)", style):
            if not url.startswith("data:"):
                bad("style fetches %r" % url)

        if el.tag == SVG + "svg":
            if el.get("aria-hidden") == "true":
                continue
            role = el.get("role")
            if role not in ("img", "group"):
                bad("<svg class=%r> has role %r" % (el.get("class"), role))
            kids = [k for k in el if isinstance(k.tag, str)]
            name = el.get("aria-label") or \
                (text_of(kids[0]) if kids and kids[0].tag == SVG + "title" else "")
            if not name:
                bad("<svg class=%r> has no accessible name" % el.get("class"))
        elif tag == "a" and el.get("href") is not None:
            if not (text_of(el) or el.get("title") or el.get("aria-label")):
                bad("link to %r has no name" % el.get("href"))
        elif tag == "details":
            first = next((k for k in el if isinstance(k.tag, str)), None)
            if first is None or local(first.tag) != "summary" or not text_of(first):
                bad("<details> without a summary with text")
        elif tag == "button":
            if not (text_of(el) or el.get("aria-label")):
                bad("button without a name")
        elif tag == "table":
            if el.find(".//h:th", NS) is None:
                bad("table without header cells")
            if "sortable" in (el.get("class") or "").split():
                rows = el.findall("./h:tbody/h:tr", NS)
                widths = {len(r.findall("./h:td", NS) + r.findall("./h:th", NS)) for r in rows}
                if len(widths) > 1:
                    bad("sortable table with rows of %s cells" % sorted(widths))
                width = max(widths) if widths else 0
                for th in el.findall(".//h:th[@data-col]", NS):
                    if not 0 <= int(th.get("data-col")) < width:
                        bad("sort heading %r points at column %s of %d"
                            % (text_of(th), th.get("data-col"), width))
    return problems


def main(argv):
    if not argv:
        print("usage: html-lint.py PAGE...", file=sys.stderr)
        return 2
    problems = []
    for p in argv:
        problems += lint(p)
    for p in problems[:50]:
        print(p)
    if len(problems) > 50:
        print("... and %d more" % (len(problems) - 50))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
