"""What users read names only commands and options that exist: every `scripts/NAME --option`
in the product's text (the harness's and the bindings' messages, the scripts, the docs, the
README) names a script that is there and options that script, or what it hands its arguments
to, reads. A message that sends users to a command that does not exist fails here."""
import os
import re
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PRODUCT = ("harness/", "bindings/", "plugins/", "bench/", "scripts/", "docs/", "README.md",
           "experiments/", "examples/")
NAMED = re.compile(r"(?<![\w/.-])scripts/([A-Za-z_][\w-]*(?:\.py)?)((?:[ \t]+--[a-z][\w-]*)*)")


def product_files():
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    return [f for f in listed if f.startswith(PRODUCT) and
            (re.search(r"\.(cpp|h|py|md|bash|json)$", f) or re.match(r"scripts/[^/.]+$", f))]


def corpus(script):
    """The script's text, with what it hands its options to: the analysis or tune module it
    runs, and scripts/setup when it passes set-up options on (scripts/build)."""
    text = open(os.path.join(ROOT, script), encoding="utf-8").read()
    for module in set(re.findall(r"\banalysis\"?\s+([a-z_]+)", text)) | {os.path.basename(script).replace("-", "_")}:
        path = os.path.join(ROOT, "scripts", "harness_analysis", module + ".py")
        if os.path.exists(path):
            text += open(path, encoding="utf-8").read()
    for package, module in set(re.findall(r"-m\s+(harness_\w+)\.(\w+)", text)):
        folder = {"harness_analysis": "scripts", "harness_tune": "bindings/torch/tune"}[package]
        text += open(os.path.join(ROOT, folder, package, module + ".py"), encoding="utf-8").read()
    if "scripts/setup" in text and script != "scripts/setup":
        text += corpus("scripts/setup")
    return text


def named_commands():
    found = []
    for name in product_files():
        with open(os.path.join(ROOT, name), encoding="utf-8", errors="replace") as stream:
            text = stream.read()
        for match in NAMED.finditer(text):
            found.append((name, match.group(1), match.group(2).split()))
    return found


def test_every_named_script_and_option_exists():
    problems = []
    for where, script, options in named_commands():
        path = os.path.join(ROOT, "scripts", script)
        if not os.path.exists(path):
            problems.append(f"{where}: scripts/{script}: no such script")
            continue
        if os.path.isdir(path):
            continue
        text = corpus(os.path.join("scripts", script))
        problems += [f"{where}: scripts/{script} {option}: the script reads no such option"
                     for option in options if option not in text]
    assert not problems, "\n".join(problems)


def test_the_check_finds_a_command_that_does_not_exist(tmp_path):
    """The rule itself can fail: the message that once sent users to --capture-only."""
    text = "give the job.json (scripts/tune --capture-only -- <your launch command> writes one)"
    [(script, options)] = [(m.group(1), m.group(2).split()) for m in NAMED.finditer(text)]
    assert script == "tune" and options == ["--capture-only"]
    assert "--capture-only" not in corpus("scripts/tune")


HARNESS_OPTION = re.compile(r"(?<![\w.-])harness((?:[ \t]+--[a-z][\w-]*)+)")


def harness_options():
    """The options the harness's command line declares (harness/src/run/main.cpp)."""
    text = open(os.path.join(ROOT, "harness", "src", "run", "main.cpp"), encoding="utf-8").read()
    return set(re.findall(r'add_(?:option|flag)\(\s*"(?:-\w,)?(--[a-z][\w-]*)"', text))


def test_every_named_harness_option_exists():
    declared = harness_options()
    assert {"--resume", "--record-schema", "--check-records"} <= declared  # the reader reads
    problems = []
    for name in product_files():
        with open(os.path.join(ROOT, name), encoding="utf-8", errors="replace") as stream:
            text = stream.read()
        for match in HARNESS_OPTION.finditer(text):
            problems += [f"{name}: harness {option}: the harness has no such option"
                         for option in match.group(1).split() if option not in declared]
    assert not problems, "\n".join(problems)


def test_the_harness_option_rule_can_fail():
    text = "run ./build/harness --capture-only to record the job"
    options = [option for match in HARNESS_OPTION.finditer(text) for option in match.group(1).split()]
    assert options == ["--capture-only"] and "--capture-only" not in harness_options()
