# hx_link_torch(<target> [PUBLIC|PRIVATE]): links LibTorch into <target> and, with
# HARNESS_TORCH_PCH (on by default), compiles those of its sources that include LibTorch with
# one precompiled <torch/torch.h>, built once and shared by every target that uses LibTorch.
#
# Parsing <torch/torch.h> is most of such a unit's cost (about 23 s of 28 s at -O2 -g on this
# project's 2-core machines); loading the precompiled header instead costs about 7 s. A unit
# that does not include LibTorch would only pay that load, so it is compiled without it: a
# source is taken to include LibTorch when it, or a header of this project it includes
# (followed transitively), includes <torch/...>, <ATen/...> or <c10/...>.
#
# GCC takes a precompiled header only into units compiled with the same code-model and
# predefined-macro flags: every unit that uses it is compiled as library code (-fPIC),
# executables' too, the header is built with the project's warning flags (-Wpedantic changes
# the predefined macros), and -Winvalid-pch warns should a flag ever differ. ccache caches
# these units only with sloppiness pch_defines,time_macros (set on the launcher in
# CMakeLists.txt).
option(HARNESS_TORCH_PCH "compile LibTorch users with one shared precompiled torch/torch.h" ON)

if(HARNESS_TORCH_PCH)
  add_library(harness_torch_pch OBJECT "${CMAKE_CURRENT_LIST_DIR}/torch_pch.cpp")
  target_link_libraries(harness_torch_pch PRIVATE "${TORCH_LIBRARIES}" harness_warnings)
  target_compile_options(harness_torch_pch PRIVATE -fPIC)
  target_precompile_headers(harness_torch_pch PRIVATE <torch/torch.h>)
endif()

# Sets <result> to TRUE when <file> includes LibTorch, directly or through the project's own
# headers (looked up beside the file and under the given include directories).
function(hx_includes_torch file result)
  get_property(known GLOBAL PROPERTY "HX_TORCH_${file}" SET)
  if(known)
    get_property(answer GLOBAL PROPERTY "HX_TORCH_${file}")
    set(${result} ${answer} PARENT_SCOPE)
    return()
  endif()
  set_property(GLOBAL PROPERTY "HX_TORCH_${file}" FALSE)  # an include cycle ends here
  file(STRINGS "${file}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
  set(answer FALSE)
  get_filename_component(folder "${file}" DIRECTORY)
  foreach(line IN LISTS includes)
    if(line MATCHES "<(torch|ATen|c10)/")
      set(answer TRUE)
      break()
    endif()
    if(NOT line MATCHES "\"([^\"]+)\"")
      continue()
    endif()
    set(name "${CMAKE_MATCH_1}")
    foreach(root "${folder}" ${ARGN})
      if(EXISTS "${root}/${name}")
        hx_includes_torch("${root}/${name}" nested ${ARGN})
        if(nested)
          set(answer TRUE)
        endif()
        break()
      endif()
    endforeach()
    if(answer)
      break()
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY "HX_TORCH_${file}" ${answer})
  set(${result} ${answer} PARENT_SCOPE)
endfunction()

function(hx_link_torch target)
  set(scope PRIVATE)
  if(ARGC GREATER 1)
    set(scope ${ARGV1})
  endif()
  target_link_libraries(${target} ${scope} "${TORCH_LIBRARIES}")
  if(NOT HARNESS_TORCH_PCH)
    return()
  endif()
  target_compile_options(${target} PRIVATE -fPIC -Winvalid-pch)
  target_precompile_headers(${target} REUSE_FROM harness_torch_pch)
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(roots "${PROJECT_SOURCE_DIR}/harness/src" "${PROJECT_SOURCE_DIR}/harness/include"
            "${PROJECT_SOURCE_DIR}/tests/support" "${PROJECT_SOURCE_DIR}/bench/support")
  foreach(source IN LISTS sources)
    get_filename_component(path "${source}" ABSOLUTE BASE_DIR "${source_dir}")
    hx_includes_torch("${path}" uses_torch ${roots})
    if(NOT uses_torch)
      set_source_files_properties("${source}" TARGET_DIRECTORY ${target}
                                  PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endif()
  endforeach()
endfunction()
