#pragma once
// Unqualified type names without RTTI, read from the compiler's function signature.

#include <string_view>

namespace tickfsm::detail {

template <class T>
constexpr std::string_view RawTypeName() noexcept {
#if defined(__clang__) || defined(__GNUC__)
    constexpr std::string_view fn = __PRETTY_FUNCTION__;
    constexpr std::string_view key = "T = ";
    constexpr auto start = fn.find(key) + key.size();
    // g++ ends with "; std::string_view = ...]", clang with "]".
    constexpr auto end = fn.find_first_of(";]", start);
    return fn.substr(start, end - start);
#else
    return "state";
#endif
}

/// "ns::Outer<ns::X>::Inner" -> "Inner"; "Hero" -> "Hero"; keeps template arguments
/// of the last component intact ("Attack<2>").
constexpr std::string_view Unqualify(std::string_view name) noexcept {
    int depth = 0;
    std::size_t cut = 0;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char ch = name[i];
        if (ch == '<' || ch == '(') ++depth;
        else if (ch == '>' || ch == ')') --depth;
        else if (depth == 0 && ch == ':' && i + 1 < name.size() && name[i + 1] == ':') {
            cut = i + 2;
            ++i;
        }
    }
    return name.substr(cut);
}

template <class T>
constexpr std::string_view TypeName() noexcept {
    return Unqualify(RawTypeName<T>());
}

} // namespace tickfsm::detail
