# Sourced by scripts/setup: the project's PyTorch, from PyPI, in .venv (Debian's Python is
# externally managed; nothing goes into the system's). The torch pinned in
# scripts/lib/torch-requirements.txt; a user who points the build at their own torch
# (HARNESS_TORCH_PYTHON=/path/to/python in the environment) gets none of it.
#   ensure_torch_venv: links .venv to the machine's environment of the pinned requirements,
#   making it from /usr/bin/python3 first where there is none. Safe to run again.
#   torch_venv_ready: whether that is done already (or HARNESS_TORCH_PYTHON imports torch).
torch_venv_ready() {
  if [ -n "${HARNESS_TORCH_PYTHON:-}" ]; then
    "$HARNESS_TORCH_PYTHON" -c 'import torch' 2>/dev/null
    return
  fi
  [ -x .venv/bin/python ] && cmp -s .venv/.harness-requirements scripts/lib/torch-requirements.txt
}

# The environment itself lives outside the clone, one per pinned requirements file, shared by
# every clone on the machine (HARNESS_CACHE_DIR, else ~/.cache/harness: venvs/<hash>), and .venv
# links to it: its 4 GB are unpacked once per machine, as the compiler cache compiles once. The
# two most recently used are kept.
ensure_torch_venv() {
  if torch_venv_ready; then
    [ -L .venv ] && touch "$(readlink -f .venv)"  # in use: the pruning below keeps it
    return 0
  fi
  if [ -n "${HARNESS_TORCH_PYTHON:-}" ]; then  # the user's own torch: checked, nothing installed
    echo "scripts/setup: HARNESS_TORCH_PYTHON=$HARNESS_TORCH_PYTHON cannot import torch" >&2
    return 1
  fi
  if [ -d .venv ] && [ ! -L .venv ] && [ ! -e .venv/.harness-requirements ]; then
    echo "scripts/setup: .venv is an environment this project did not make; move it away (or set HARNESS_TORCH_PYTHON to its python)" >&2
    return 1
  fi
  local requirements=scripts/lib/torch-requirements.txt
  local venvs="${HARNESS_CACHE_DIR:-$HOME/.cache/harness}/venvs"
  local shared
  shared="$venvs/$(sha256sum "$requirements" | cut -c1-16)"
  mkdir -p "$venvs"
  (  # one clone installs, another one at the same moment waits for it
    flock 9
    if ! { [ -x "$shared/bin/python" ] && cmp -s "$shared/.harness-requirements" "$requirements"; }; then
      rm -rf "$shared"
      /usr/bin/python3 -m venv "$shared"
      echo "scripts/setup: installing PyTorch into $shared (linked as .venv) from PyPI ($(grep -m1 '^torch' "$requirements"); about 4 GB with CUDA's libraries)"
      "$shared/bin/python" -m pip install -q --disable-pip-version-check -r "$requirements" ||
        { rm -rf "$shared"; exit 1; }
      cp "$requirements" "$shared/.harness-requirements"
    fi
    touch "$shared"
    # This project's own earlier environment (an older pin) gives way to the link.
    [ -L .venv ] || rm -rf .venv
    ln -sfn "$shared" .venv
    prune_torch_venvs "$venvs"
  ) 9>"$venvs/.lock"
}

# prune_torch_venvs DIR: all but the two most recently used environments in DIR go (only
# directories that are DIR's own entries: a link there is left alone).
prune_torch_venvs() {
  local entry kept=0
  while IFS= read -r -d '' entry; do
    kept=$((kept + 1))
    [ "$kept" -le 2 ] || rm -rf -- "${entry#* }"
  done < <(find "$1" -mindepth 1 -maxdepth 1 -type d -printf '%T@ %p\0' | sort -z -rn)
}
