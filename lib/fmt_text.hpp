#pragma once
// fmt formats a tickfsm::Text as the text it holds (for lib/ only: fmt is a
// private dependency of the compiled library).

#include <fmt/format.h>

#include <tickfsm/text.hpp>

template <>
struct fmt::formatter<tickfsm::Text> : fmt::formatter<std::string_view> {
    template <class FormatContext>
    auto format(const tickfsm::Text& text, FormatContext& context) const {
        return fmt::formatter<std::string_view>::format(text.view(), context);
    }
};
