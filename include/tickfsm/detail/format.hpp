#pragma once
// Text of errors and traces, formatted once in lib/ (fmt is a private
// dependency of the compiled library): a header hands over the format string
// and its arguments as MessageArg values, so no user's translation unit
// includes or instantiates fmt.

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace tickfsm {
struct Event;
} // namespace tickfsm

namespace tickfsm::detail {

/// One argument of a message: text, an integer or a real number. It refers to
/// the text it was given, which must outlive the call it is passed to.
struct MessageArg {
    enum class Kind : std::uint8_t { Text, Signed, Unsigned, Real };

    MessageArg(std::string_view s) noexcept : kind(Kind::Text), text(s) {}
    MessageArg(const std::string& s) noexcept : kind(Kind::Text), text(s) {}
    MessageArg(const char* s) noexcept : kind(Kind::Text), text(s) {}
    template <std::signed_integral T>
    MessageArg(T v) noexcept : kind(Kind::Signed), signed_value(v) {}
    template <std::unsigned_integral T>
        requires(!std::same_as<T, bool>)
    MessageArg(T v) noexcept : kind(Kind::Unsigned), unsigned_value(v) {}
    template <std::floating_point T>
    MessageArg(T v) noexcept : kind(Kind::Real), real_value(static_cast<double>(v)) {}

    Kind kind;
    union {
        std::string_view text;
        long long signed_value;
        unsigned long long unsigned_value;
        double real_value;
    };
};

/// `format` (fmt's syntax: `{}` for each argument in order) with `args` filled in.
std::string VFormat(std::string_view format, std::initializer_list<MessageArg> args);

/// Format("{} -> {}", from, to): the arguments are text, integers or reals.
template <class... Args>
std::string Format(std::string_view format, const Args&... args) {
    return VFormat(format, {MessageArg(args)...});
}

/// "tickfsm: <kind>: <what>": the message of a mistake made with a kind of
/// machine, named as its table names it ("StateManager<Hero, Pad>").
std::string KindMessage(std::string_view kind, std::string_view what);

/// An event as messages and traces show it: "Jump", "Hit::Obstacle", or
/// "Hit(300)" for an enum value without a name.
std::string EventText(const Event& event);

} // namespace tickfsm::detail
