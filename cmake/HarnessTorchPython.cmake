# HARNESS_TORCH_PYTHON: the Python whose PyTorch 2.x the PyTorch side of the harness runs on:
# the torch.distributed backend harness_torch is built for its torch, and scripts/tune, the
# process group's tests and the PyTorch benchmarks run under it. By default the project's
# .venv (scripts/setup --peer installs the torch pinned in scripts/lib/torch-requirements.txt);
# HARNESS_TORCH_PYTHON=/path/to/python in the environment (scripts/setup then makes no .venv), or
# -DHARNESS_TORCH_PYTHON_CHOSEN=/path/to/python, points it at a user's own. Decided at every
# configure.
# Sets HARNESS_TORCH_PYTHON_FOUND, and with it _VERSION, _CXX11_ABI, _INCLUDES (torch's header
# folders), _LIBDIR and _INCLUDE (Python's headers); else _MISSING says why.
set(HARNESS_TORCH_PYTHON_CHOSEN "" CACHE FILEPATH
    "the Python whose torch (2.x) harness_torch is built for (empty: HARNESS_TORCH_PYTHON from the environment, else the project's .venv)")
if(HARNESS_TORCH_PYTHON_CHOSEN)
  set(HARNESS_TORCH_PYTHON "${HARNESS_TORCH_PYTHON_CHOSEN}")
elseif(DEFINED ENV{HARNESS_TORCH_PYTHON})
  set(HARNESS_TORCH_PYTHON "$ENV{HARNESS_TORCH_PYTHON}")
else()
  set(HARNESS_TORCH_PYTHON "${PROJECT_SOURCE_DIR}/.venv/bin/python")
endif()
# Read by the scripts that run PyTorch jobs after a build (scripts/lib/torch_python.bash).
file(WRITE "${CMAKE_BINARY_DIR}/torch_python" "${HARNESS_TORCH_PYTHON}\n")
set(HARNESS_TORCH_PYTHON_FOUND FALSE)
if(NOT EXISTS "${HARNESS_TORCH_PYTHON}")
  set(HARNESS_TORCH_PYTHON_MISSING
      "${HARNESS_TORCH_PYTHON} does not exist (scripts/setup --peer makes the project's .venv)")
  return()
endif()
execute_process(COMMAND "${HARNESS_TORCH_PYTHON}" "${CMAKE_CURRENT_LIST_DIR}/torch_python_probe.py"
                OUTPUT_VARIABLE probe ERROR_VARIABLE probe_error RESULT_VARIABLE probe_failed
                ERROR_STRIP_TRAILING_WHITESPACE)
if(probe_failed)
  set(HARNESS_TORCH_PYTHON_MISSING "${HARNESS_TORCH_PYTHON}: ${probe_error}")
  return()
endif()
list(GET probe 0 HARNESS_TORCH_PYTHON_VERSION)
list(GET probe 1 HARNESS_TORCH_PYTHON_CXX11_ABI)
list(GET probe 2 includes)
string(REPLACE "|" ";" HARNESS_TORCH_PYTHON_INCLUDES "${includes}")
list(GET probe 3 HARNESS_TORCH_PYTHON_LIBDIR)
list(GET probe 4 HARNESS_TORCH_PYTHON_INCLUDE)
set(HARNESS_TORCH_PYTHON_FOUND TRUE)
message(STATUS "PyTorch side: torch ${HARNESS_TORCH_PYTHON_VERSION} (${HARNESS_TORCH_PYTHON})")
