# Consumer test driver, run from CTest as
#   cmake -DMODE=<find_package|add_subdirectory> -D... -P consumer_test.cmake
#
# find_package:     `cmake --install` the tickfsm build tree TICKFSM_BINARY_DIR
#                   into WORK_DIR/prefix, then configure CONSUMER_SOURCE_DIR with
#                   CMAKE_PREFIX_PATH=<that prefix>, build it and run it.
# add_subdirectory: configure CONSUMER_SOURCE_DIR, which add_subdirectory()s
#                   TICKFSM_SOURCE_DIR, build it and run it.
#
# Required: MODE CONSUMER_SOURCE_DIR WORK_DIR TICKFSM_SOURCE_DIR
#           TICKFSM_BINARY_DIR CXX_COMPILER GENERATOR
# Optional: CONFIG (build type), MAKE_PROGRAM, CTEST_COMMAND, fmt_DIR,
#           SHARED (add_subdirectory: the consumer sets BUILD_SHARED_LIBS=ON)
cmake_minimum_required(VERSION 3.25)

foreach(var IN ITEMS MODE CONSUMER_SOURCE_DIR WORK_DIR TICKFSM_SOURCE_DIR
                     TICKFSM_BINARY_DIR CXX_COMPILER GENERATOR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "consumer_test.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT MODE MATCHES "^(find_package|add_subdirectory)$")
  message(FATAL_ERROR "consumer_test.cmake: unknown MODE '${MODE}'")
endif()
if(NOT DEFINED CTEST_COMMAND OR CTEST_COMMAND STREQUAL "")
  set(CTEST_COMMAND "${CMAKE_CTEST_COMMAND}")
endif()

# run(<description> <command>...): echo, run, stop on a non-zero exit code.
function(run what)
  string(REPLACE ";" " " pretty "${ARGN}")
  message(STATUS "[consumer.${MODE}] ${what}: ${pretty}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "[consumer.${MODE}] ${what} failed (${rc})")
  endif()
endfunction()

set(build_dir "${WORK_DIR}/build")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

set(configure_args
    -S "${CONSUMER_SOURCE_DIR}" -B "${build_dir}"
    -G "${GENERATOR}"
    "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
if(MAKE_PROGRAM)
  list(APPEND configure_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
if(CONFIG)
  list(APPEND configure_args "-DCMAKE_BUILD_TYPE=${CONFIG}")
endif()
if(SHARED)
  list(APPEND configure_args -DBUILD_SHARED_LIBS=ON)
endif()
if(fmt_DIR)
  # The fmt the parent build found, so both sides use the same one.
  list(APPEND configure_args "-Dfmt_DIR=${fmt_DIR}")
endif()

if(MODE STREQUAL "find_package")
  set(prefix "${WORK_DIR}/prefix")
  set(install_args --install "${TICKFSM_BINARY_DIR}" --prefix "${prefix}")
  if(CONFIG)
    list(APPEND install_args --config "${CONFIG}")
  endif()
  run("install tickfsm" "${CMAKE_COMMAND}" ${install_args})

  file(GLOB_RECURSE config_files "${prefix}/*/tickfsmConfig.cmake")
  if(NOT config_files)
    message(FATAL_ERROR "[consumer.${MODE}] no tickfsmConfig.cmake installed under ${prefix}")
  endif()

  list(APPEND configure_args
      "-DCMAKE_PREFIX_PATH=${prefix}"
      # Only the freshly installed package may satisfy find_package(tickfsm).
      -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
      -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)
else()
  list(APPEND configure_args "-DTICKFSM_SOURCE_DIR=${TICKFSM_SOURCE_DIR}")
endif()

run("configure consumer" "${CMAKE_COMMAND}" ${configure_args})

if(MODE STREQUAL "find_package")
  # Make sure the package came from the prefix, not from a system install.
  file(STRINGS "${build_dir}/CMakeCache.txt" found_dir REGEX "^tickfsm_DIR:")
  string(REGEX REPLACE "^tickfsm_DIR:[A-Z]+=" "" found_dir "${found_dir}")
  file(REAL_PATH "${prefix}" real_prefix)
  file(REAL_PATH "${found_dir}" real_found_dir)
  string(FIND "${real_found_dir}/" "${real_prefix}/" pos)
  if(NOT pos EQUAL 0)
    message(FATAL_ERROR
        "[consumer.${MODE}] tickfsm was found in '${found_dir}', not under '${prefix}'")
  endif()
endif()

set(build_args --build "${build_dir}")
if(CONFIG)
  list(APPEND build_args --config "${CONFIG}")
endif()
run("build consumer" "${CMAKE_COMMAND}" ${build_args})

# The consumer registers its executable as a test: this runs it wherever the
# generator put it (single- or multi-config).
set(ctest_args --test-dir "${build_dir}" --output-on-failure --no-tests=error)
if(CONFIG)
  list(APPEND ctest_args -C "${CONFIG}")
endif()
run("run consumer" "${CTEST_COMMAND}" ${ctest_args})

message(STATUS "[consumer.${MODE}] OK")
