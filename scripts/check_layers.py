#!/usr/bin/env python3
"""Fails when a header or source of TS includes a layer it may not use.

    scripts/check_layers.py [<TS source dir>]        (ctest: layers.no_upward_includes)

The layers, their directories and what each may include come from cmake/layers.cmake
(the one layer map; docs/architecture.md, "Layers"). Every file under include/ts and src
must belong to a layer; every #include of a TS header (quoted or angled, in any #if
branch) must name a header of the same layer or of a layer the includer USES. Also
refused: a public header (include/) including a private one (src/), and a library file
including a forwarding header instead of the header it forwards to.
Prints one line per violation, `file:line: includes <header> (<layer> -> <layer>): why`,
and exits 1 when there is any.
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
SCANNED = ("include/ts", "src")
EXTENSIONS = (".hpp", ".h", ".cuh", ".cpp", ".cu", ".inl")


def parse_map(path):
    text = re.sub(r"#[^\n]*", "", open(path).read())
    layers, forwards = {}, {}
    for name, body in re.findall(r"\b(ts_layer|ts_forwarding_header)\s*\(([^)]*)\)", text):
        words = body.split()
        if name == "ts_forwarding_header":
            if len(words) != 2:
                sys.exit(f"{path}: ts_forwarding_header({body.strip()}): expected <file> <header>")
            forwards[words[0]] = words[1]
            continue
        layer = {"name": words[0], "TARGET": [], "DIRS": [], "FILES": [], "USES": []}
        key = None
        for w in words[1:]:
            if w in ("TARGET", "DIRS", "FILES", "USES"):
                key = w
            elif key is None:
                sys.exit(f"{path}: ts_layer({words[0]} ...): '{w}' before any keyword")
            else:
                layer[key].append(w)
        if layer["name"] in layers:
            sys.exit(f"{path}: layer {layer['name']} declared twice")
        layers[layer["name"]] = layer
    for l in layers.values():
        for u in l["USES"]:
            if u not in layers:
                sys.exit(f"{path}: layer {l['name']} uses unknown layer {u}")
    return layers, forwards


def main():
    layers, forwards = parse_map(os.path.join(ROOT, "cmake", "layers.cmake"))
    def below(name, seen=None):  # every layer `name` reaches through USES
        seen = set() if seen is None else seen
        for u in layers[name]["USES"]:
            if u not in seen:
                seen.add(u)
                below(u, seen)
        return seen

    by_dir, by_file = {}, {}
    for l in layers.values():
        for d in l["DIRS"]:
            by_dir[d.rstrip("/")] = l["name"]
        for f in l["FILES"]:
            by_file[f] = l["name"]

    def layer_of(rel):
        if rel in forwards:
            return layer_of("include/" + forwards[rel])
        if rel in by_file:
            return by_file[rel]
        return by_dir.get(os.path.dirname(rel))

    files = []
    for top in SCANNED:
        for dirpath, _, names in os.walk(os.path.join(ROOT, top)):
            for n in sorted(names):
                if n.endswith(EXTENSIONS):
                    files.append(os.path.relpath(os.path.join(dirpath, n), ROOT).replace(os.sep, "/"))
    files.sort()

    include_re = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
    problems = []
    for rel in files:
        mine = layer_of(rel)
        if mine is None:
            problems.append(f"{rel}:1: belongs to no layer: add its directory to cmake/layers.cmake")
            continue
        if rel in forwards:
            continue  # a forwarding header includes its target, of its own layer by definition
        allowed = set(layers[mine]["USES"]) | {mine}
        for lineno, line in enumerate(open(os.path.join(ROOT, rel), encoding="utf-8", errors="replace"), 1):
            m = include_re.match(line)
            if not m:
                continue
            name = m.group(2)
            target = None
            here = os.path.normpath(os.path.join(os.path.dirname(rel), name)).replace(os.sep, "/")
            if m.group(1) == '"' and os.path.isfile(os.path.join(ROOT, here)):
                target = here
            elif os.path.isfile(os.path.join(ROOT, "include", name)):
                target = "include/" + name
            elif os.path.isfile(os.path.join(ROOT, "src", name)):
                target = "src/" + name
            if target is None or not target.startswith(SCANNED):
                continue  # a system or third-party header
            theirs = layer_of(target)
            where = f"{rel}:{lineno}: includes {name}"
            if target in forwards:
                problems.append(f"{where}: a forwarding header kept for users; include {forwards[target]} instead")
                if theirs in allowed:
                    continue
            if rel.startswith("include/") and target.startswith("src/"):
                problems.append(f"{where} ({mine} -> {theirs}): a public header includes a private header of src/")
                continue
            if theirs is None:
                continue  # reported for the file itself
            if theirs not in allowed:
                uses = ("may include only " + " ".join(layers[mine]["USES"]) if layers[mine]["USES"] else
                        "may include no other layer")
                rule = "an upward include" if mine in below(theirs) else "a layer it may not use"
                problems.append(f"{where} ({mine} -> {theirs}): {rule}; {mine} {uses}")
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} layer violation(s); the layer map is cmake/layers.cmake (docs/architecture.md)")
        return 1
    print(f"layers: {len(files)} files, {len(layers)} layers, no include outside the layer map")
    return 0


if __name__ == "__main__":
    sys.exit(main())
