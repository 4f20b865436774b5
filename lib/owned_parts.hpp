#pragma once
// DeleteInLibrary's definition (detail/owned.hpp): the library's own, so that
// each type only declared in the public headers is deleted where it is
// complete. The file that defines such a type instantiates the deleter for
// it; every other file of the library uses that instantiation (the extern
// declarations below), never one of its own, where the type is incomplete.

#include "tickfsm/detail/nested_plan.hpp"
#include "tickfsm/detail/owned.hpp"
#include "tickfsm/detail/registry.hpp"

namespace tickfsm::detail {

template <class T>
void DeleteInLibrary::operator()(T* object) const noexcept {
    delete object;
}

extern template void DeleteInLibrary::operator()(NestedPlan*) const noexcept;  // lib/engine.cpp
extern template void DeleteInLibrary::operator()(EdgeNotes*) const noexcept;   // lib/engine.cpp
extern template void DeleteInLibrary::operator()(KeyedStates*) const noexcept; // lib/engine.cpp
extern template void DeleteInLibrary::operator()(StepNodes*) const noexcept;   // lib/registry.cpp

} // namespace tickfsm::detail
