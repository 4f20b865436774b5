#pragma once
// Unqualified type names without RTTI, read from the compiler's function signature.

#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

namespace tickfsm::detail {

/// The text of template argument `param` in a g++ or clang __PRETTY_FUNCTION__:
/// "... [with T = Hero; std::string_view = ...]" -> "Hero" (clang ends with "]").
constexpr std::string_view PrettyArgument(std::string_view pretty, std::string_view param) noexcept {
    const auto start = pretty.find(param) + param.size();
    const auto end = pretty.find_first_of(";]", start);
    return pretty.substr(start, end - start);
}

template <class T>
constexpr std::string_view RawTypeName() noexcept {
#if defined(__clang__) || defined(__GNUC__)
    return PrettyArgument(__PRETTY_FUNCTION__, "T = ");
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

/// "CreatureState::Attack1" for an enumerator V, or empty when V names none.
template <auto V>
constexpr std::string_view EnumeratorName() noexcept {
#if defined(__clang__) || defined(__GNUC__)
    constexpr std::string_view name = PrettyArgument(__PRETTY_FUNCTION__, "V = ");
    if constexpr (name.empty() || name[0] == '(' || (name[0] >= '0' && name[0] <= '9') || name[0] == '-')
        return {};
    else
        return Unqualify(name);
#else
    return {};
#endif
}

template <class E, int... I>
constexpr auto EnumeratorNames(std::integer_sequence<int, I...>) noexcept {
    return std::array<std::string_view, sizeof...(I)>{EnumeratorName<static_cast<E>(I)>()...};
}

/// The enumerator's name for values 0 to 63 of E, else empty.
template <class E>
constexpr std::string_view EnumName(E value) noexcept {
    constexpr auto names = EnumeratorNames<E>(std::make_integer_sequence<int, 64>{});
    const auto index = static_cast<long long>(value);
    return index >= 0 && index < 64 ? names[static_cast<std::size_t>(index)] : std::string_view{};
}

} // namespace tickfsm::detail
