#pragma once
// tickfsm::StateId and tickfsm::StateRef: how queries and gates name a state.

#include <cstdint>
#include <string_view>
#include <type_traits>

#include "detail/type_key.hpp"

namespace tickfsm {

/// A key for a keyed state: a value of an enum or an integer.
template <class K>
concept StateKey = std::is_enum_v<K> || std::is_integral_v<K>;

/// A state of one machine, as its queries name it (`IdOf<S>()`, `WouldTransition`).
struct StateId {
    std::uint16_t value = 0xFFFF;
    /// False for the id of a type that is not a state of the machine.
    constexpr bool Valid() const noexcept { return value != 0xFFFF; }
    friend constexpr bool operator==(StateId, StateId) = default;
};

/// The other state of a change, as a gate sees it: `to.Is<Flinch>()`.
/// Not Valid() when there is none (the first state a machine enters).
class StateRef {
public:
    constexpr StateRef() noexcept = default;
    constexpr StateRef(const void* state_type, std::string_view state_name, StateId state_id,
                       const void* state_key_type = nullptr, std::uint64_t state_key = 0) noexcept
        : type_key(state_type), name(state_name), id(state_id), key_type(state_key_type), key_value(state_key) {}

    /// True when this is state T.
    template <class T>
    bool Is() const noexcept {
        return type_key == detail::TypeKey<T>();
    }
    /// True when this is the keyed state registered under `key` (AddState<S>(key)).
    template <class K>
    bool IsKey(K key) const noexcept {
        return key_type == detail::TypeKey<K>() && key_value == static_cast<std::uint64_t>(key);
    }
    std::string_view Name() const noexcept { return name; }
    StateId Id() const noexcept { return id; }
    bool Valid() const noexcept { return id.Valid(); }

private:
    const void* type_key = nullptr;
    std::string_view name;
    StateId id;
    const void* key_type = nullptr;
    std::uint64_t key_value = 0;
};

} // namespace tickfsm
