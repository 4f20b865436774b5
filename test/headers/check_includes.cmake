# Fails if a translation unit that includes <tickfsm/tickfsm.hpp> (or the
# compile-time form's <tickfsm/static_machine.hpp>) alone pulls in a heavy
# standard header or fmt: every user's file pays for what these headers
# include, on every edit. <string> and <vector> are on the list: the core
# speaks tickfsm::Text and tickfsm::List (docs/text_and_lists.md).
#
#   cmake -DCXX=<compiler> -DINCLUDE_DIR=<include dir> -P check_includes.cmake
cmake_minimum_required(VERSION 3.25)

foreach(header tickfsm.hpp static_machine.hpp)
set(source "${CMAKE_CURRENT_BINARY_DIR}/${header}_alone.cpp")
file(WRITE "${source}" "#include <tickfsm/${header}>\nint main() { return 0; }\n")
execute_process(
    COMMAND "${CXX}" -std=c++20 -E -H "${source}" -I "${INCLUDE_DIR}" -o /dev/null
    RESULT_VARIABLE result
    ERROR_VARIABLE tree)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "check_includes: preprocessing <tickfsm/${header}> failed:\n${tree}")
endif()

set(found "")
foreach(heavy memory mutex atomic thread unordered_map map functional tuple cmath ostream iostream sstream regex
        string vector optional stdexcept)
  if(tree MATCHES "[/\\\\]${heavy}\n")
    list(APPEND found "<${heavy}>")
  endif()
endforeach()
if(tree MATCHES "fmt[/\\\\]")
  list(APPEND found "fmt")
endif()
if(found)
  list(JOIN found ", " found)
  message(FATAL_ERROR "check_includes: <tickfsm/${header}> includes ${found}; keep it out of the headers "
                      "(compile what needs it in lib/)")
endif()
endforeach()
message(STATUS "check_includes: tickfsm.hpp and static_machine.hpp include none of the heavy headers")
