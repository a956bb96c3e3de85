# The fuzz targets and what each one compiles and links, shared by the libFuzzer build
# (tests/fuzz/CMakeLists.txt, clang) and the regression replay in the ordinary build
# (tests/fuzz_replay, any compiler). fuzz_<name>.cpp defines LLVMFuzzerTestOneInput; its
# seed corpus is corpus/<name>/ and the inputs that once failed are regressions/<name>/.

set(SCALESCOPE_FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR})
set(SCALESCOPE_FUZZ_TARGETS
  scenario profile nccl_tests_log gallery catalog probe_line autosave kineto_trace)

# scalescope_fuzz_setup(<cmake target> <fuzz name>): sources, include folders, libraries.
function(scalescope_fuzz_setup target name)
  target_sources(${target} PRIVATE ${SCALESCOPE_FUZZ_DIR}/fuzz_${name}.cpp
    ${SCALESCOPE_FUZZ_DIR}/fuzz_util.h)
  target_include_directories(${target} PRIVATE ${SCALESCOPE_FUZZ_DIR})
  target_compile_definitions(${target} PRIVATE QT_NO_KEYWORDS)
  if(name STREQUAL "nccl_tests_log")
    target_link_libraries(${target} PRIVATE scalescope_gpuprobe)
  elseif(name STREQUAL "probe_line")
    # The pure line parser of the desktop app, without the rest of the GUI library.
    target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/app/gui/probe_runner.h
      ${PROJECT_SOURCE_DIR}/app/gui/probe_runner.cpp)
    target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/app/gui)
    set_target_properties(${target} PROPERTIES AUTOMOC ON)
    target_link_libraries(${target} PRIVATE Qt6::Core)
  elseif(name STREQUAL "autosave")
    target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/app/gui/autosave.h
      ${PROJECT_SOURCE_DIR}/app/gui/autosave.cpp)
    target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/app/gui)
    target_link_libraries(${target} PRIVATE scalescope_model)
  else()
    target_link_libraries(${target} PRIVATE scalescope_model)
  endif()
endfunction()
