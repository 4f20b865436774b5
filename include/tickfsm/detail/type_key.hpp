#pragma once
// Identity of a type without RTTI: a table finds a state's id by searching its states' keys for one.

namespace tickfsm::detail {

template <class T>
struct TypeKeyHolder {
    static inline char key = 0; // non-const so that no linker folds two of them
};

template <class T>
inline const void* TypeKey() noexcept {
    return &TypeKeyHolder<T>::key;
}

} // namespace tickfsm::detail
