# cmake -DPROGRAM=<exe> -DEXPECT=<regex> -P expect_abort.cmake
# Passes when PROGRAM ends abnormally (abort) and its stderr matches EXPECT.
execute_process(COMMAND "${PROGRAM}" RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(result EQUAL 0)
  message(FATAL_ERROR "expected ${PROGRAM} to abort, it exited 0; stdout: ${out}")
endif()
if(NOT err MATCHES "${EXPECT}")
  message(FATAL_ERROR "stderr of ${PROGRAM} does not match '${EXPECT}':\n${err}")
endif()
message(STATUS "aborted as expected (${result}): ${err}")
