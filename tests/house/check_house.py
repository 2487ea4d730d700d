#!/usr/bin/env python3
"""The house's rules, checked on the source tree (label unit):
  1. layers: contract/ includes only contract/; kernels/ (the algorithm library) contract/ and
     kernels/; sim/ contract/ and sim/; core/ everything below app/; app/ anything but tests/;
  2. no include loop: a module is a .h with its .cpp/.cu (and .cuh); module A uses B when a file of
     A includes a file of B; the modules of the whole tree must form no cycle;
  3. no source file over 700 lines.
Usage: check_house.py SOURCE_DIR   (exit 1 with every violation listed)"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
FOLDERS = ["contract", "sim", "kernels", "core", "app", "translate"]
ALLOWED = {
    "contract": {"contract"},
    "kernels": {"contract", "kernels"},
    "sim": {"contract", "sim"},
    "core": {"contract", "sim", "kernels", "core"},
    "app": {"contract", "sim", "kernels", "core", "app"},
    "translate": {"translate"},
}
SOURCE = (".h", ".cpp", ".cu", ".cuh")
MAX_LINES = 700
include = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def module(path):
    base, _ = os.path.splitext(path)
    return base


files = []
for top in FOLDERS:
    for dirpath, _, names in os.walk(os.path.join(ROOT, top)):
        files += [os.path.relpath(os.path.join(dirpath, n), ROOT) for n in names if n.endswith(SOURCE)]
files.sort()
known = set(files)

problems = []
uses = {}
for f in files:
    text = open(os.path.join(ROOT, f), encoding="utf-8", errors="replace").read()
    lines = text.count("\n")
    if lines > MAX_LINES:
        problems.append(f"{f}: {lines} lines (at most {MAX_LINES})")
    layer = f.split("/")[0]
    for target in include.findall(text):
        if target not in known:
            continue  # a system header, a generated file, or tests/
        if target.split("/")[0] not in ALLOWED[layer]:
            problems.append(f"{f} includes {target}: {layer}/ may include only {', '.join(sorted(ALLOWED[layer]))}/")
        a, b = module(f), module(target)
        if a != b:
            uses.setdefault(a, set()).add(b)

# Cycles among modules: Tarjan's strongly connected components.
index, low, on_stack, stack, components, counter = {}, {}, set(), [], [], [0]


def visit(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on_stack.add(v)
    for w in sorted(uses.get(v, ())):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on_stack:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        component = []
        while True:
            w = stack.pop()
            on_stack.discard(w)
            component.append(w)
            if w == v:
                break
        if len(component) > 1:
            components.append(sorted(component))


sys.setrecursionlimit(10000)
for v in sorted({module(f) for f in files}):
    if v not in index:
        visit(v)
for c in components:
    ties = [f"{a} -> {b}" for a in c for b in sorted(uses.get(a, ())) if b in c]
    problems.append("include loop: " + " / ".join(c) + "  (" + ", ".join(ties) + ")")

for p in problems:
    print(p)
modules = len({module(f) for f in files})
if problems:
    print(f"check_house: {len(problems)} problem(s) in {len(files)} files, {modules} modules")
    sys.exit(1)
print(f"check_house: {len(files)} files, {modules} modules in {', '.join(FOLDERS)}: layers kept, no include loop, "
      f"no file over {MAX_LINES} lines")
