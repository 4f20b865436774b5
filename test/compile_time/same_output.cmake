# Runs the generated StateManager machine and a twin written from the same
# transitions (the compile-time machine, or a StateManager configured from the
# constant); passes only if both succeed and print the same line (states
# visited, entries, counters).
#
#   cmake -DSTATE_MANAGER=<exe> -DTWIN=<exe> -P same_output.cmake
foreach(which STATE_MANAGER TWIN)
  if(NOT DEFINED ${which} OR NOT EXISTS "${${which}}")
    message(FATAL_ERROR "same_output.cmake: pass -D${which}=<program>")
  endif()
  execute_process(COMMAND "${${which}}" RESULT_VARIABLE rc OUTPUT_VARIABLE out_${which} ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "same_output.cmake: ${${which}} failed (${rc}):\n${out_${which}}${err}")
  endif()
endforeach()
if(NOT out_STATE_MANAGER STREQUAL out_TWIN)
  message(FATAL_ERROR "same_output.cmake: the two machines differ:\n"
          "StateManager: ${out_STATE_MANAGER}\ntwin:         ${out_TWIN}")
endif()
message(STATUS "both: ${out_TWIN}")
