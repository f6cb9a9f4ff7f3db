# Sourced by the scripts that run PyTorch jobs with the harness backend (after a build):
#   torch_python: prints the Python whose torch build/'s harness_torch was built for (what its
#   configure chose, cmake/HarnessTorchPython.cmake: the project's .venv unless pointed elsewhere).
torch_python() {
  local configured
  configured=$(cat build/torch_python 2>/dev/null)
  echo "${configured:-$PWD/.venv/bin/python}"
}
