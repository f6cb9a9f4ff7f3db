# Sourced by scripts/setup: the project's PyTorch, from PyPI, in .venv (Debian's Python is
# externally managed; nothing goes into the system's). The torch pinned in
# scripts/lib/torch-requirements.txt; a user who points the build at their own torch
# (HARNESS_TORCH_PYTHON=/path/to/python in the environment) gets none of it.
#   ensure_torch_venv: makes .venv from /usr/bin/python3 when it is missing, and installs the
#   pinned requirements when they are not what it holds. Safe to run again.
#   torch_venv_ready: whether that is done already (or HARNESS_TORCH_PYTHON imports torch).
torch_venv_ready() {
  if [ -n "${HARNESS_TORCH_PYTHON:-}" ]; then
    "$HARNESS_TORCH_PYTHON" -c 'import torch' 2>/dev/null
    return
  fi
  [ -x .venv/bin/python ] && cmp -s .venv/.harness-requirements scripts/lib/torch-requirements.txt
}

ensure_torch_venv() {
  torch_venv_ready && return 0
  if [ -n "${HARNESS_TORCH_PYTHON:-}" ]; then  # the user's own torch: checked, nothing installed
    echo "scripts/setup: HARNESS_TORCH_PYTHON=$HARNESS_TORCH_PYTHON cannot import torch" >&2
    return 1
  fi
  local venv=.venv requirements=scripts/lib/torch-requirements.txt
  local stamp="$venv/.harness-requirements"
  [ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv "$venv"
  echo "scripts/setup: installing PyTorch into $venv from PyPI ($(grep -m1 '^torch' "$requirements"); about 4 GB with CUDA's libraries)"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$requirements"
  cp "$requirements" "$stamp"
}
