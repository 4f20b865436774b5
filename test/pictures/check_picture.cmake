# cmake -DSAMPLE=<exe> -DMODE=dot|mermaid|committed [-DDOT=<dot>] [-DSTATES=a,b] [-DCOMMITTED=<file.dot>]
#         -P check_picture.cmake
#
# dot:       runs `SAMPLE --dot`, renders it with Graphviz (`dot -Tsvg`) and
#            requires a non-empty SVG that names every state of STATES.
# mermaid:   runs `SAMPLE --mermaid`, requires a stateDiagram-v2 naming every state.
# committed: requires `SAMPLE --dot` to equal COMMITTED, the DOT text beside a
#            picture in docs/ (the DOT, not the SVG: Graphviz's SVG differs
#            between its versions); scripts/pictures.sh regenerates them.

function(fail message)
  message(FATAL_ERROR "check_picture (${MODE}, ${SAMPLE}): ${message}")
endfunction()

if(MODE STREQUAL "mermaid")
  set(flag --mermaid)
else()
  set(flag --dot)
endif()
execute_process(COMMAND "${SAMPLE}" ${flag} OUTPUT_VARIABLE text RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  fail("the sample exited with ${rc}")
endif()

if(MODE STREQUAL "committed")
  file(READ "${COMMITTED}" committed)
  if(NOT text STREQUAL committed)
    fail("the picture in docs/ is out of date: ${COMMITTED} differs from the sample's --dot; run scripts/pictures.sh")
  endif()
  return()
endif()

if(MODE STREQUAL "mermaid")
  string(FIND "${text}" "stateDiagram-v2\n" at)
  if(at EQUAL -1)
    fail("no stateDiagram-v2 in:\n${text}")
  endif()
  set(picture "${text}")
else()
  if(NOT DOT)
    fail("Graphviz's dot was not found when configuring; install graphviz (bash scripts/deps.sh) and configure again")
  endif()
  string(RANDOM LENGTH 8 tag)
  get_filename_component(name "${SAMPLE}" NAME)
  set(dot_file "${CMAKE_CURRENT_BINARY_DIR}/${name}.${tag}.dot")
  file(WRITE "${dot_file}" "${text}")
  execute_process(COMMAND "${DOT}" -Tsvg "${dot_file}" OUTPUT_VARIABLE picture ERROR_VARIABLE errors RESULT_VARIABLE rc)
  file(REMOVE "${dot_file}")
  if(NOT rc EQUAL 0)
    fail("dot -Tsvg failed (${rc}): ${errors}")
  endif()
  string(FIND "${picture}" "<svg" at)
  if(at EQUAL -1)
    fail("dot -Tsvg wrote no SVG")
  endif()
endif()

string(REPLACE "," ";" STATES "${STATES}")
foreach(state IN LISTS STATES)
  if(MODE STREQUAL "mermaid")
    string(FIND "${picture}" "state \"${state}" at)
  else()
    string(FIND "${picture}" ">${state}" at)
  endif()
  if(at EQUAL -1)
    fail("the picture does not name state ${state}")
  endif()
endforeach()
