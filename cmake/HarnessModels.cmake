# TorchScript models exported at build time with Python's torch (Debian's python3-torch):
# the examples experiments/your_model.json and fusion_study.json train, the benchmark's
# scripted twins of the built-in plugins, and the modules the tests load. Without a Python
# torch nothing is exported and what needs the files says so.
set(HARNESS_PYTHON "/usr/bin/python3" CACHE FILEPATH "the Python whose torch exports TorchScript models")
execute_process(COMMAND "${HARNESS_PYTHON}" -c "import torch"
                RESULT_VARIABLE python_torch_missing OUTPUT_QUIET ERROR_QUIET)
if(python_torch_missing)
  set(HARNESS_PYTHON_TORCH OFF)
  message(STATUS "${HARNESS_PYTHON} has no torch (scripts/setup --peer): example TorchScript models are not exported")
else()
  set(HARNESS_PYTHON_TORCH ON)
endif()
set(HARNESS_MODEL_DIR "${CMAKE_BINARY_DIR}/models")

# hx_export_model(<name> <export_model.py arguments>...): build/models/<name>.pt.
function(hx_export_model name)
  if(NOT HARNESS_PYTHON_TORCH)
    return()
  endif()
  set(file "${HARNESS_MODEL_DIR}/${name}.pt")
  add_custom_command(OUTPUT "${file}"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${HARNESS_MODEL_DIR}"
    COMMAND "${HARNESS_PYTHON}" "${PROJECT_SOURCE_DIR}/scripts/export_model.py" ${ARGN} "${file}"
    DEPENDS "${PROJECT_SOURCE_DIR}/scripts/export_model.py"
    COMMENT "Exporting the TorchScript model ${name}.pt" VERBATIM)
  add_custom_target(model_${name} ALL DEPENDS "${file}")
  set_property(GLOBAL APPEND PROPERTY HARNESS_MODEL_EXPORTS model_${name})
endfunction()
