#pragma once
// Formatting for the library's own sources: the headers name a Message
// instead (detail/format.hpp), so that every text lives in lib/.

#include <initializer_list>
#include <string>
#include <string_view>

#include <tickfsm/detail/format.hpp>

namespace tickfsm::detail {

/// `format` (fmt's syntax: `{}` for each argument in order) with `args` filled in (lib/format.cpp).
std::string VFormat(std::string_view format, std::initializer_list<MessageArg> args);

/// Format("{} -> {}", from, to): the arguments are text, integers or reals.
template <class... Args>
std::string Format(std::string_view format, const Args&... args) {
    return VFormat(format, {MessageArg(args)...});
}

} // namespace tickfsm::detail
