#pragma once
// tickfsm: the one error type of configuration mistakes, and the one cold
// function every check reports through.

#include <exception>
#include <string_view>

#include "detail/owned.hpp"
#include "text.hpp"

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
class ConfigError : public std::exception {
public:
    explicit ConfigError(std::string_view message);
    /// The message, null-terminated.
    const char* what() const noexcept override;

private:
    detail::Shared<const Text> message; // shared, so that copying the error cannot throw
};

namespace detail {

/// Prints `message` and a newline to stderr, and aborts.
[[noreturn, gnu::cold]] void AbortWith(std::string_view message) noexcept;

/// Every tickfsm error goes through here, so the tick path only holds a call.
/// Inline, so that the program's choice of exceptions decides: throw a
/// ConfigError, or print the message and abort. Files of one program must
/// agree: the linker keeps one copy of an inline function.
[[noreturn, gnu::cold, gnu::noinline]] inline void ReportConfigError(std::string_view message) {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
    throw ConfigError(message);
#else
    AbortWith(message);
#endif
}

} // namespace detail
} // namespace tickfsm
