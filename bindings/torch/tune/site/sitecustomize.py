"""Put on a job's PYTHONPATH by scripts/tune: Python runs this at start-up in every process of
the job, before the user's script, and it installs the tune recorder (harness_tune.inject)
when HARNESS_TUNE_MODE is set. The script itself is never edited."""
import importlib.util
import os
import sys


def _chain_system_sitecustomize():
    """This module shadows the interpreter's own sitecustomize (Debian ships one): run it too."""
    here = os.path.dirname(os.path.abspath(__file__))
    for folder in sys.path:
        if folder and os.path.abspath(folder) != here:
            candidate = os.path.join(folder, "sitecustomize.py")
            if os.path.isfile(candidate):
                spec = importlib.util.spec_from_file_location("_system_sitecustomize", candidate)
                spec.loader.exec_module(importlib.util.module_from_spec(spec))
                return


_chain_system_sitecustomize()
if os.environ.get("HARNESS_TUNE_MODE"):
    import harness_tune.inject  # noqa: F401,E402
