#!/usr/bin/env python3
"""The layers of the source tree, checked: no include runs back up and none forms a circle.

    check_layers.py SOURCE_DIR

Each folder below has a floor (docs/architecture.md draws them); a file may include files of
its own folder and of folders on lower floors, never of a higher one or of a sibling on the
same floor. Every quoted include of a .h, .cuh or .cpp, .cu file in kernels/, host/, python/,
viewer/, bench/ and tests/ is read; an include that names no file of the tree is an error too.
Exits 1, naming each include that breaks a rule and each circle of files.
"""
import os
import re
import sys

# Lowest first. Folders on one floor may not include each other.
FLOORS = [
    ["kernels"],
    ["host/base"],
    ["host/model"],
    ["host/metrics"],
    ["host/core"],
    ["host/parts", "host/reference"],
    ["host/backends"],
    ["host/io"],
    ["host/validation"],
    ["host/config"],
    ["host/mpi", "host/render"],
    ["host/tools", "host/serve"],
    ["host/cli", "host/boids.h"],
    ["python", "viewer", "bench"],
    ["tests"],
]
ROOTS = ["kernels", "host", "python", "viewer", "bench", "tests"]
SOURCES = (".h", ".cuh", ".cpp", ".cu")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folder_of(path):
    """The folder a file belongs to: kernels, host/<concern> (host/boids.h alone), or a root."""
    parts = path.split("/")
    if parts[0] == "host":
        return "host/" + parts[1] if len(parts) > 2 else path
    return parts[0]


def floor_of(folder):
    for level, folders in enumerate(FLOORS):
        if folder in folders:
            return level
    return None


def sources(root):
    for top in ROOTS:
        for directory, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                if name.endswith(SOURCES):
                    path = os.path.relpath(os.path.join(directory, name), root)
                    yield path.replace(os.sep, "/")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    files = sorted(sources(root))
    known = set(files)
    graph = {}
    errors = []
    for path in files:
        with open(os.path.join(root, path), encoding="utf-8") as f:
            text = f.read()
        here = folder_of(path)
        if floor_of(here) is None:
            errors.append(f"{path}: its folder {here} has no floor in tests/layout/check_layers.py")
            continue
        graph[path] = []
        for included in INCLUDE.findall(text):
            if included not in known:
                # Generated units, GoogleTest's and the libraries' own headers are not the tree's.
                if included.split("/")[0] in ROOTS:
                    errors.append(f"{path}: includes {included}, which is not in the tree")
                continue
            graph[path].append(included)
            there = folder_of(included)
            if there == here:
                continue
            a, b = floor_of(here), floor_of(there)
            if b is None or b > a:
                errors.append(f"{path}: includes {included}, a floor up ({here} -> {there})")
            elif b == a:
                errors.append(f"{path}: includes {included}, beside it ({here} -> {there})")
    # Circles of files, by depth-first search.
    state = {}
    stack = []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in graph.get(node, []):
            if state.get(nxt) == "open":
                errors.append("a circle: " + " -> ".join(stack[stack.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = "done"

    sys.setrecursionlimit(10000)
    for node in graph:
        if node not in state:
            visit(node)
    for error in errors:
        print(error)
    if errors:
        sys.exit(1)
    print(f"check_layers: {len(files)} files on {len(FLOORS)} floors, no include up and no circle")


if __name__ == "__main__":
    main()
