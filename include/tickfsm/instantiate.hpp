#pragma once
// Compile a Controller/Action pair's shared machine code once instead of in
// every source file that uses it.

#include <cstddef>

#include "detail/config.hpp"
#include "detail/table.hpp"
#include "detail/engine.hpp"
#include "event.hpp"
#include "machine.hpp"
#include "observer.hpp"
#include "state_manager.hpp"

/// In the header that declares your StateManager subclass, at global scope and
/// after Controller and Action are complete: the code every machine of this
/// Controller/Action pair shares (configuration, the general path, errors) is
/// compiled elsewhere, so source files that include the header skip it.
/// Exactly one source file must then say TICKFSM_INSTANTIATE_MACHINE with the
/// same types. A type whose name has a comma needs an alias first.
#define TICKFSM_EXTERN_MACHINE(Controller, Action) TICKFSM_DETAIL_MACHINE_TEMPLATES(extern template, Controller, Action)

/// In exactly one source file, at global scope: compiles what
/// TICKFSM_EXTERN_MACHINE(Controller, Action) left out of the others.
#define TICKFSM_INSTANTIATE_MACHINE(Controller, Action) TICKFSM_DETAIL_MACHINE_TEMPLATES(template, Controller, Action)

// Every template whose code depends only on the Controller/Action pair (the
// general path, the same for every pair, is compiled once in the library).
#define TICKFSM_DETAIL_MACHINE_TEMPLATES(Kind, Controller, Action)                                              \
    Kind class ::tickfsm::StateManager<Controller, Action>;                                                    \
    Kind struct ::tickfsm::detail::ManagerStorage<Controller, Action>;                                         \
    Kind struct ::tickfsm::detail::ManagerConfig<Controller, Action>;                                          \
    Kind struct ::tickfsm::detail::ManagerEngine<Controller, Action>;                                          \
    Kind class ::tickfsm::Machine<Controller, Action>;                                                         \
    Kind struct ::tickfsm::detail::KindTable<Controller, Action>;                                              \
    Kind ::tickfsm::detail::Registry& ::tickfsm::detail::RegistryOf<Controller, Action>()
