# Sourced by the scripts that run PyTorch jobs with the harness backend (after a build):
#   torch_python: prints the Python whose torch build/'s harness_torch was built for (the
#   build's HARNESS_TORCH_PYTHON: the project's .venv unless the build was pointed elsewhere).
torch_python() {
  local configured
  configured=$(sed -n 's/^HARNESS_TORCH_PYTHON:FILEPATH=//p' build/CMakeCache.txt 2>/dev/null)
  echo "${configured:-$PWD/.venv/bin/python}"
}
