# FindNCCL: the CUDA toolkit (runtime) and NCCL, which CMake 3.25 has no module for.
# Sets NCCL_FOUND, NCCL_VERSION and the imported target NCCL::nccl (which brings CUDA::cudart).
if(NOT DEFINED CUDAToolkit_ROOT AND EXISTS /usr/local/cuda)
  set(CUDAToolkit_ROOT /usr/local/cuda)
endif()
find_package(CUDAToolkit QUIET)
find_path(NCCL_INCLUDE_DIR nccl.h
  HINTS ${CUDAToolkit_INCLUDE_DIRS} ENV NCCL_HOME PATH_SUFFIXES include
  PATHS /usr/local/cuda /usr)
find_library(NCCL_LIBRARY nccl
  HINTS ${CUDAToolkit_LIBRARY_DIR} ENV NCCL_HOME PATH_SUFFIXES lib lib64
  PATHS /usr/local/cuda /usr)
if(NCCL_INCLUDE_DIR AND EXISTS "${NCCL_INCLUDE_DIR}/nccl.h")
  file(STRINGS "${NCCL_INCLUDE_DIR}/nccl.h" _nccl_version_lines REGEX "^#define NCCL_(MAJOR|MINOR|PATCH) ")
  foreach(_part MAJOR MINOR PATCH)
    string(REGEX REPLACE ".*#define NCCL_${_part} ([0-9]+).*" "\\1" _nccl_${_part} "${_nccl_version_lines}")
  endforeach()
  set(NCCL_VERSION "${_nccl_MAJOR}.${_nccl_MINOR}.${_nccl_PATCH}")
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(NCCL
  REQUIRED_VARS NCCL_LIBRARY NCCL_INCLUDE_DIR CUDAToolkit_FOUND
  VERSION_VAR NCCL_VERSION)
if(NCCL_FOUND AND NOT TARGET NCCL::nccl)
  add_library(NCCL::nccl UNKNOWN IMPORTED)
  set_target_properties(NCCL::nccl PROPERTIES
    IMPORTED_LOCATION "${NCCL_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${NCCL_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES CUDA::cudart)
endif()
# A search that found no NCCL leaves nothing behind in the cache, so the next configure searches
# afresh: a toolkit or NCCL installed since (or a wrapper such as /usr/local/bin/nvcc whose
# toolkit was missing then) is found, never shadowed by what this search cached.
if(NOT NCCL_FOUND)
  foreach(_entry CUDAToolkit_BIN_DIR CUDAToolkit_NVCC_EXECUTABLE CUDAToolkit_SENTINEL_FILE
                 CUDA_CUDART NCCL_INCLUDE_DIR NCCL_LIBRARY)
    unset(${_entry} CACHE)
  endforeach()
endif()
