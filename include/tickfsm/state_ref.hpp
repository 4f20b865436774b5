#pragma once
// tickfsm::StateId and tickfsm::StateRef: how queries and gates name a state.

#include <cstdint>
#include <string_view>

#include "detail/type_key.hpp"

namespace tickfsm {

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
    constexpr StateRef(const void* key, std::string_view name, StateId id) noexcept : key_(key), name_(name), id_(id) {}

    /// True when this is state T.
    template <class T>
    bool Is() const noexcept {
        return key_ == detail::TypeKey<T>();
    }
    std::string_view Name() const noexcept { return name_; }
    StateId Id() const noexcept { return id_; }
    bool Valid() const noexcept { return id_.Valid(); }

private:
    const void* key_ = nullptr;
    std::string_view name_;
    StateId id_;
};

} // namespace tickfsm
