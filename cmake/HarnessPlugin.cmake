# hx_add_plugin(<name> KIND model|comm SOURCES ... [LIBS ...] [OUTPUT_DIR dir])
#
# Builds a harness plugin: a shared library with hidden visibility (only the versioned
# harness_*_v1 entry points are exported), linked with -z,defs so a missing symbol fails
# the build instead of the first call, and named libharness_<kind>_<name>.so. The target is
# harness_<kind>_<name>. A plugin built into the default plugin directory is one the product
# ships: it joins the main_job build group (CMakeLists.txt).
function(hx_add_plugin name)
  cmake_parse_arguments(ARG "" "KIND;OUTPUT_DIR" "SOURCES;LIBS" ${ARGN})
  if(NOT ARG_KIND MATCHES "^(model|comm)$")
    message(FATAL_ERROR "hx_add_plugin(${name}): KIND must be model or comm, got '${ARG_KIND}'")
  endif()
  set(target harness_${ARG_KIND}_${name})
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR "${HARNESS_PLUGIN_OUTPUT_DIR}")
    set_property(GLOBAL APPEND PROPERTY HARNESS_SHIPPED_PLUGINS ${target})
  endif()
  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE harness_plugin_api harness_warnings ${ARG_LIBS})
  set_target_properties(${target} PROPERTIES
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LIBRARY_OUTPUT_DIRECTORY "${ARG_OUTPUT_DIR}")
  target_link_options(${target} PRIVATE "LINKER:-z,defs")
  file(REMOVE "${ARG_OUTPUT_DIR}/lib${target}.so.not-built")
endfunction()

# hx_plugin_not_built(<name> KIND model|comm REASON text)
#
# A shipped plugin this machine cannot build (its library is missing) leaves a note in its
# place, libharness_<kind>_<name>.so.not-built, holding why. An experiment that names it then
# records its trials as skipped, saying why, instead of refusing the name as unknown: the
# headline job runs on a machine without CUDA. The next build that can make it removes the note.
function(hx_plugin_not_built name)
  cmake_parse_arguments(ARG "" "KIND;REASON" "" ${ARGN})
  file(WRITE "${HARNESS_PLUGIN_OUTPUT_DIR}/libharness_${ARG_KIND}_${name}.so.not-built"
       "${ARG_REASON}\n")
  file(REMOVE "${HARNESS_PLUGIN_OUTPUT_DIR}/libharness_${ARG_KIND}_${name}.so")
endfunction()
