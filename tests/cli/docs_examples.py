"""The command lines the README, docs/ and `boids CMD --help` show run as written: every
`build/bin/boids` line of a shell block (its continuation lines joined) and every example of a
command's help, in order, each page's from a scratch directory of its own holding the build's
`bin/` and the repository's examples/, as a user pasting them would. A `boids run` line must fly
at its model's example density or say its own (--density, --world, --init, --resume): its
flock is drawn again with --steps 0, and the summary's warning of a density ten times the
example's fails it.

A line passes when it ends with exit 0, or when it is still flying at its budget with nothing
said on stderr: every refusal (an option, a file, an output that cannot be written) comes before
the flight, so a line accepted and flying for its budget runs as written. A line whose input an
earlier line of its page was to make, stopped at its budget before it did, is skipped saying so.
`boids serve` (which never ends and takes port 8000), boids-viewer and boids-bench lines are
their own suites' (tests/serve, tests/viewer, bench_quick).

Usage: docs_examples.py SOURCE_DIR BUILD_BIN_DIR WORK_DIR [BUDGET_SECONDS]
"""

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys

SOURCE, BIN, WORK = (os.path.abspath(a) for a in sys.argv[1:4])
BUDGET = float(sys.argv[4]) if len(sys.argv) > 4 else 4.0
PAGES = ["README.md"] + sorted("docs/" + name for name in os.listdir(os.path.join(SOURCE, "docs"))
                               if name.endswith(".md"))
INPUTS = ("--resume", "--init", "--replay")  # options naming a file an earlier line may make
HELPS = ["run", "sweep", "validate", "convert", "params", "info", "analyse"]
OUTPUTS = ("--save", "--metrics", "--metrics-every", "--plot", "--checkpoint",
           "--checkpoint-every", "--trajectory", "--trajectory-every", "--trajectory-layout")
failures = []


def command_lines(page):
    """The `build/bin/boids ...` lines of the page's shell blocks, continuations joined,
    comments dropped."""
    lines, block, pending = [], False, ""
    with open(os.path.join(SOURCE, page)) as f:
        for raw in f:
            if raw.startswith("```"):
                block = not block and raw.strip() in ("```sh", "```bash", "```shell")
                continue
            if not block:
                continue
            text = pending + raw.strip()
            pending = ""
            if text.endswith("\\"):
                pending = text[:-1] + " "
                continue
            if text.startswith("build/bin/boids "):
                lines.append(shlex.split(text, comments=True))
    return lines


def help_lines(command):
    """The examples of `boids COMMAND --help` (its lines after "Examples:" that start with
    `boids`, each without the words that explain it), as build/bin/boids lines."""
    said = subprocess.run([os.path.join(BIN, "boids"), command, "--help"], capture_output=True,
                          text=True).stdout.splitlines()
    start = next((k for k, line in enumerate(said) if line.strip() == "Examples:"), len(said))
    lines = []
    for line in said[start + 1:]:
        if not line.startswith("  boids "):
            break
        shown = re.split(r"\s{2,}", line.strip())[0]  # the command, not what it is for
        lines.append(["build/bin/boids"] + shlex.split(shown)[1:])
    return lines


def flies_at_its_density(words, where):
    """Whether `boids run WORDS` draws its flock at its model's example density or at one it
    names: the flock drawn with --steps 0, its outputs left out, is not said to fly ten times
    denser than the example."""
    if any(w in words for w in ("--density", "--world", "--init", "--resume")):
        return True, ""
    drawn, skip = [], False
    for w in words:
        if skip:
            skip = False
        elif w in OUTPUTS or w == "--steps":
            skip = True
        elif w != "--json":
            drawn.append(w)
    result = subprocess.run([os.path.join(where, drawn[0])] + drawn[1:] + ["--steps", "0"],
                            cwd=where, capture_output=True, text=True, timeout=120)
    return "example density" not in result.stdout, result.stdout + result.stderr


def run(words, where):
    """(exit status or None when stopped at the budget, stderr)."""
    process = subprocess.Popen([os.path.join(where, words[0])] + words[1:], cwd=where,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        _, err = process.communicate(timeout=BUDGET)
        return process.returncode, err
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        _, err = process.communicate()
        return None, err


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    ran = 0
    pages = [(page, command_lines(page)) for page in PAGES]
    pages += [(f"boids {command} --help", help_lines(command)) for command in HELPS]
    if not any(lines for page, lines in pages if page == "boids run --help"):
        failures.append("boids run --help: no examples found after 'Examples:'")
    for page, lines in pages:
        where = os.path.join(WORK, page.replace("/", "_").replace(" ", "_"))
        os.makedirs(os.path.join(where, "build"))
        os.symlink(BIN, os.path.join(where, "build", "bin"))
        os.symlink(os.path.join(SOURCE, "examples"), os.path.join(where, "examples"))
        stopped = set()  # the outputs of this page's lines stopped at their budget
        for words in lines:
            tool = os.path.basename(words[0])
            if tool != "boids" or words[1] in ("serve",):
                continue
            shown = " ".join(words)
            wanted = [words[k + 1] for k, w in enumerate(words[:-1]) if w in INPUTS]
            if words[1] == "convert":
                wanted.append(words[2])
            if any(w in stopped and not os.path.exists(os.path.join(where, w)) for w in wanted):
                print(f"skip  {page}: {shown}: its input is a stopped line's")
                continue
            status, err = run(words, where)
            ran += 1
            if status is None:
                made = [words[k + 1] for k, w in enumerate(words[:-1])
                        if w in ("--save", "--checkpoint", "--trajectory", "--metrics")]
                stopped.update(made)
                ok = err.strip() == ""
                print(f"{'ok' if ok else 'FAIL'}    {page}: {shown}: flying at {BUDGET:g} s")
            else:
                ok = status == 0
                print(f"{'ok' if ok else 'FAIL'}    {page}: {shown}: exit {status}")
            if not ok:
                failures.append(f"{page}: {shown}: {err.strip()[:300]}")
            if words[1] == "run":
                dense_ok, said = flies_at_its_density(words, where)
                if not dense_ok:
                    failures.append(f"{page}: {shown}: flies far denser than its model's example "
                                    f"with no --density or --world: {said.strip()[:300]}")
    print(f"{ran} command lines run")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures or ran == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
