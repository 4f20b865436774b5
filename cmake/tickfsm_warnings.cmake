# Build defaults for tickfsm's *own* targets (tests, samples, benchmarks).
#
# Nothing in here is applied directory-wide and nothing leaks into consumers:
# every flag is added PRIVATE to the target that asks for it.
#
#   tickfsm_target_defaults(<target> [SAMPLE])
#
# SAMPLE marks the target as a sample program; with TICKFSM_NO_EXCEPTIONS it is
# then compiled with -fno-exceptions.
include_guard(GLOBAL)

# Flags shared by tickfsm_target_defaults() and the header-verification
# targets (see tickfsm_verify_flags in the top-level CMakeLists.txt).
set(TICKFSM_WARNING_FLAGS -Wall -Wextra -Wpedantic -Wconversion -Wshadow)
set(TICKFSM_SANITIZER_FLAGS
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
set(TICKFSM_TSAN_FLAGS -fsanitize=thread -fno-omit-frame-pointer)

function(tickfsm_target_defaults target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "SAMPLE" "" "")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tickfsm_target_defaults: unexpected arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "tickfsm_target_defaults: '${target}' is not a target")
  endif()

  target_compile_options(${target} PRIVATE ${TICKFSM_WARNING_FLAGS})
  if(TICKFSM_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()

  if(TICKFSM_SANITIZE)
    target_compile_options(${target} PRIVATE ${TICKFSM_SANITIZER_FLAGS})
    target_link_options(${target} PRIVATE ${TICKFSM_SANITIZER_FLAGS})
  endif()
  if(TICKFSM_TSAN)
    target_compile_options(${target} PRIVATE ${TICKFSM_TSAN_FLAGS})
    target_link_options(${target} PRIVATE ${TICKFSM_TSAN_FLAGS})
  endif()

  if(TICKFSM_NO_EXCEPTIONS AND arg_SAMPLE)
    target_compile_options(${target} PRIVATE -fno-exceptions)
  endif()
endfunction()
