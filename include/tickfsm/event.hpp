#pragma once
// tickfsm::Event: a named event ("Jump") or a value of a user's enum, keyed at
// compile time so that sending one never hashes a string.

#include <cstdint>
#include <string_view>
#include <type_traits>

#include "detail/type_name.hpp"

namespace tickfsm {

namespace detail {
constexpr std::uint64_t Fnv1a(std::string_view text, std::uint64_t hash = 14695981039346656037ull) noexcept {
    for (const char ch : text) {
        hash ^= static_cast<unsigned char>(ch);
        hash *= 1099511628211ull;
    }
    return hash;
}
// The qualified name: enums of one name in two scopes (Guard::Event, Door::Event) are two kinds of event.
template <class E>
inline constexpr std::uint64_t kEnumEventSeed = Fnv1a(RawTypeName<E>(), Fnv1a("enum "));
} // namespace detail

/// An event a state can react to with `From<S>().On(event).To<T>()` and that
/// `SendEvent` delivers. Either a string known at compile time,
/// `inline constexpr tickfsm::Event Jump{"Jump"};` (or `SendEvent("Jump")`
/// with a literal), or a value of your enum, `SendEvent(CreatureEvent::Hit)`.
struct Event {
    std::uint64_t key = 0;   // what is compared when the event is sent
    std::string_view name;   // the string, or the enum's type name
    std::int64_t value = 0;  // the enum's value (enum events only); its bits, for an unsigned underlying type
    std::string_view enumerator; // the enumerator's name, where the enum names that value
    bool is_enum = false;
    bool value_is_unsigned = false; // the enum's underlying type is unsigned: read `value` as std::uint64_t

    constexpr Event() noexcept = default;

    /// A named event; the name is hashed while compiling.
    consteval Event(const char* text) : Event(std::string_view(text)) {}
    consteval Event(std::string_view text) : key(detail::Fnv1a(text)), name(text) {}

    /// An event that is a value of a user's enum.
    template <class E>
        requires std::is_enum_v<E>
    constexpr Event(E e) noexcept
        : key(detail::kEnumEventSeed<E> ^ (static_cast<std::uint64_t>(e) * 0x9E3779B97F4A7C15ull)),
          name(detail::TypeName<E>()),
          value(static_cast<std::int64_t>(e)),
          enumerator(detail::EnumName(e)),
          is_enum(true),
          value_is_unsigned(std::is_unsigned_v<std::underlying_type_t<E>>) {}

    friend constexpr bool operator==(const Event& a, const Event& b) noexcept { return a.key == b.key; }
};

namespace detail {
/// The Event a typed event (a value of class E) is reported as: named after E.
template <class E>
constexpr Event TypedEvent() noexcept {
    // A std::string would otherwise be taken for a payload class, and a name
    // made at run time would be sent as an event no named transition takes.
    static_assert(!std::is_convertible_v<const E&, std::string_view>,
                  "tickfsm: a string sent or awaited as an event: an event is a name known while compiling "
                  "(SendEvent(\"Jump\"), tickfsm::Event{\"Jump\"}), a value of your enum, or a value of a class "
                  "of yours; for an event chosen at run time, map the string to a value of your event enum and "
                  "send that, and to carry text, wrap it in a class of your own");
    Event event;
    event.key = Fnv1a(TypeName<E>(), Fnv1a("type "));
    event.name = TypeName<E>();
    return event;
}
/// TypedEvent<E>(), made once per type: what observers are handed.
template <class E>
inline constexpr Event kTypedEvent = TypedEvent<E>();
/// A typed event: a class value sent with SendEvent(Hit{...}), not a name or an enum.
template <class E>
concept TypedEventValue = std::is_class_v<E> && !std::is_convertible_v<const E&, Event>;
} // namespace detail

} // namespace tickfsm
