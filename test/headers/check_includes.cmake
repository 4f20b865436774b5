# Fails if a translation unit that includes <tickfsm/tickfsm.hpp> alone pulls
# in a heavy standard header or fmt: every user's file pays for what the
# umbrella header includes, on every edit.
#
#   cmake -DCXX=<compiler> -DINCLUDE_DIR=<include dir> -P check_includes.cmake
cmake_minimum_required(VERSION 3.25)

set(source "${CMAKE_CURRENT_BINARY_DIR}/umbrella_alone.cpp")
file(WRITE "${source}" "#include <tickfsm/tickfsm.hpp>\nint main() { return 0; }\n")
execute_process(
    COMMAND "${CXX}" -std=c++20 -E -H "${source}" -I "${INCLUDE_DIR}" -o /dev/null
    RESULT_VARIABLE result
    ERROR_VARIABLE tree)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "check_includes: preprocessing the umbrella header failed:\n${tree}")
endif()

set(found "")
foreach(heavy memory mutex atomic thread unordered_map map functional tuple cmath ostream iostream sstream regex)
  if(tree MATCHES "[/\\\\]${heavy}\n")
    list(APPEND found "<${heavy}>")
  endif()
endforeach()
if(tree MATCHES "fmt[/\\\\]")
  list(APPEND found "fmt")
endif()
if(found)
  list(JOIN found ", " found)
  message(FATAL_ERROR "check_includes: <tickfsm/tickfsm.hpp> includes ${found}; keep it out of the headers "
                      "(compile what needs it in lib/)")
endif()
message(STATUS "check_includes: the umbrella header includes none of the heavy headers")
