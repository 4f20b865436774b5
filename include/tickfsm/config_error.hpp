#pragma once
// tickfsm: the one error type of configuration mistakes, and the one cold
// function every check reports through.

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

// Checked builds refuse a Crowd's character index out of range with a
// ConfigError: by default when NDEBUG is not defined; define TICKFSM_CHECKED
// to 1 or 0 (the same in every file) to choose. Unchecked, the check costs nothing.
#ifndef TICKFSM_CHECKED
#ifdef NDEBUG
#define TICKFSM_CHECKED 0
#else
#define TICKFSM_CHECKED 1
#endif
#endif

namespace tickfsm {

/// Thrown for every configuration or usage mistake (a second initial state,
/// configuring after the first Perform, Perform from inside a hook, ...).
/// The message names the character type and the states involved. Built with
/// -fno-exceptions the message goes to stderr and the program aborts.
class ConfigError : public std::logic_error {
public:
    using std::logic_error::logic_error;
};

namespace detail {

/// Every tickfsm error goes through here, so the tick path only holds a call.
[[noreturn, gnu::cold, gnu::noinline]] inline void ReportConfigError(const std::string& message) {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
    throw ConfigError(message);
#else
    std::fputs(message.c_str(), stderr);
    std::fputc('\n', stderr);
    std::abort();
#endif
}

} // namespace detail
} // namespace tickfsm
