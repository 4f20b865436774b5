#pragma once
// Unqualified type names without RTTI, read from the compiler's function signature.

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>
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

/// T's unqualified name, computed while compiling (a variable, so that no
/// code is generated to parse the signature at run time).
template <class T>
inline constexpr std::string_view kTypeName = Unqualify(RawTypeName<T>());

template <class T>
constexpr std::string_view TypeName() noexcept {
    return kTypeName<T>;
}

/// Every value of E's scanned range in one instantiation: its signature lists
/// them, each as an enumerator or as a cast ("(E)5") where none has that value.
template <auto... V>
constexpr std::string_view EnumeratorList() noexcept {
#if defined(__clang__) || defined(__GNUC__)
    return __PRETTY_FUNCTION__;
#else
    return {};
#endif
}

/// The values EnumName knows by name: 256 from kEnumFirst<E> (the whole
/// range of a 1-byte underlying type, else 0 to 255). Each value is one more
/// item of EnumeratorList's signature, compiled in every file that names an
/// enum event or key; docs/events_and_actions.md says what the others print.
template <class E>
inline constexpr long long kEnumFirst =
    std::is_signed_v<std::underlying_type_t<E>> && sizeof(E) == 1 ? -128 : 0;
inline constexpr std::size_t kEnumCount = 256;

/// EnumeratorList's items, cut into names (empty where an item is a cast): one
/// instantiation per enum, not one per value (256 values this way compiled in
/// less time than 64 one instantiation each).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion" // values past an enum without a fixed type's range: named as casts
#endif
template <class E, int... I>
constexpr auto EnumeratorNames(std::integer_sequence<int, I...>) noexcept {
    std::array<std::string_view, sizeof...(I)> names{};
    const std::string_view pretty = EnumeratorList<static_cast<E>(kEnumFirst<E> + I)...>();
    std::size_t at = pretty.find("V = ");
    if (at == std::string_view::npos || at + 5 > pretty.size()) return names;
    at += 5; // past "V = {" (g++) or "V = <" (clang)
    for (std::size_t n = 0; n < names.size() && at < pretty.size(); ++n) {
        std::size_t end = at;
        for (int depth = 0; end < pretty.size(); ++end) { // the item ends at a comma or the list's end, outside brackets
            const char ch = pretty[end];
            if (ch == '<' || ch == '(' || ch == '{' || ch == '[') ++depth;
            else if ((ch == '>' || ch == ')' || ch == '}' || ch == ']') && depth-- == 0) break;
            else if (ch == ',' && depth == 0) break;
        }
        const std::string_view item = pretty.substr(at, end - at);
        if (!item.empty() && item[0] != '(' && item[0] != '-' && !(item[0] >= '0' && item[0] <= '9'))
            names[n] = Unqualify(item);
        at = end + 2; // past ", "
    }
    return names;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

template <class E>
inline constexpr auto kEnumNames = EnumeratorNames<E>(std::make_integer_sequence<int, kEnumCount>{});

/// The enumerator's name for the 256 values from kEnumFirst<E>, else empty.
template <class E>
constexpr std::string_view EnumName(E value) noexcept {
    const auto& names = kEnumNames<E>;
    const auto index = static_cast<long long>(value) - kEnumFirst<E>;
    return index >= 0 && index < static_cast<long long>(kEnumCount) ? names[static_cast<std::size_t>(index)]
                                                                     : std::string_view{};
}

} // namespace tickfsm::detail
