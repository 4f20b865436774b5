# Fails if a public header writes the text of a message: every text a header
# reports lives once in lib/messages.cpp, named by a detail::Message (see
# docs/internals.md), so that no user's file compiles it.
#
#   cmake -DINCLUDE_DIR=<include dir> -P check_messages.cmake
cmake_minimum_required(VERSION 3.25)

file(GLOB_RECURSE headers "${INCLUDE_DIR}/tickfsm/*.hpp")
set(found "")
foreach(header IN LISTS headers)
  file(STRINGS "${header}" lines)
  foreach(line IN LISTS lines)
    # A literal handed to a reporting call, or a formatting call in a header.
    if(line MATCHES "(Fail|ReportConfigError)\\(\"" OR line MATCHES "[^A-Za-z_]V?Format\\(")
      file(RELATIVE_PATH name "${INCLUDE_DIR}" "${header}")
      string(STRIP "${line}" line)
      list(APPEND found "${name}: ${line}")
    endif()
  endforeach()
endforeach()
if(found)
  list(JOIN found "\n" found)
  message(FATAL_ERROR "check_messages: a header writes a message's text; add a detail::Message and its text in "
                      "lib/messages.cpp instead:\n${found}")
endif()
list(LENGTH headers count)
message(STATUS "check_messages: no message text in the ${count} public headers")
