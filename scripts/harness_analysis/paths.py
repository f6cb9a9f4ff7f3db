"""Where the project's files are, seen from the package (scripts/harness_analysis/)."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS = os.path.join(ROOT, "scripts")
HARNESS = os.path.join(ROOT, "build", "harness")
