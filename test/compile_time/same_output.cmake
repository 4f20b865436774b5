# Runs the generated StateManager machine and its compile-time twin; passes only
# if both succeed and print the same line (states visited, entries, counters).
#
#   cmake -DSTATE_MANAGER=<exe> -DSTATIC_MACHINE=<exe> -P same_output.cmake
foreach(which STATE_MANAGER STATIC_MACHINE)
  if(NOT DEFINED ${which} OR NOT EXISTS "${${which}}")
    message(FATAL_ERROR "same_output.cmake: pass -D${which}=<program>")
  endif()
  execute_process(COMMAND "${${which}}" RESULT_VARIABLE rc OUTPUT_VARIABLE out_${which} ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "same_output.cmake: ${${which}} failed (${rc}):\n${out_${which}}${err}")
  endif()
endforeach()
if(NOT out_STATE_MANAGER STREQUAL out_STATIC_MACHINE)
  message(FATAL_ERROR "same_output.cmake: the two machines differ:\n"
          "StateManager:      ${out_STATE_MANAGER}\nStaticStateManager: ${out_STATIC_MACHINE}")
endif()
message(STATUS "both: ${out_STATIC_MACHINE}")
