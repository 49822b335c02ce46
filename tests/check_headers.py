#!/usr/bin/env python3
"""Headers own their functions, and say so at the top.

For every header under src/: each function it declares must be defined in
the .c file of the same name (cglm's rule: a header lists its own file's
functions, so no header declares another file's and no two files form a
circle), and must appear, as its full prototype, in the header's opening
comment. Prints one line per problem and "headers: N passed, N failed".
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
decl_re = re.compile(r"^(?!static|typedef|#|\s)([^;{}()]*?\b([a-z_][a-z0-9_]*)\s*\(([^;{}]*?)\))\s*;", re.M | re.S)


def norm(text):
    return re.sub(r"\s+", " ", text.replace("\n *", " ")).strip()


def declarations(text):
    body = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    body = re.sub(r"^#.*$", "", body, flags=re.M)
    for m in decl_re.finditer(body):
        proto, name = m.group(1), m.group(2)
        if "typedef" in proto or "(*" in proto:
            continue
        yield name, norm(proto)


passed = failed = 0
for h in sorted((root / "src").rglob("*.h")):
    text = h.read_text()
    problems = []
    comment = re.match(r"\s*/\*(.*?)\*/", text, re.S)
    comment = norm(comment.group(1)) if comment else ""
    c_file = h.with_suffix(".c")
    c_text = c_file.read_text() if c_file.exists() else ""
    for name, proto in declarations(text):
        defined = re.search(r"^[^\s#/][^;]*?\b%s\s*\([^;]*\)\s*\{" % re.escape(name), c_text, re.M)
        if not defined:
            problems.append(f"declares {name}(), which {c_file.name} does not define")
        if proto not in comment:
            problems.append(f"the opening comment lacks the prototype: {proto}")
    rel = h.relative_to(root)
    for p in problems:
        print(f"{rel}: {p}")
    if problems:
        failed += 1
    else:
        passed += 1
print(f"headers: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
