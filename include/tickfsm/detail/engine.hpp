#pragma once
// The general path (tick.hpp with the push stack, regions and the nested
// step) and the table are compiled once for every kind of machine, in the
// library (lib/engine.cpp): this header declares those instantiations, so
// that a file that uses machines compiles none of it. Every header whose
// typed code calls into the general path includes it.

#include <cstddef>

#include "../event.hpp"
#include "tick.hpp"

#define TICKFSM_DETAIL_ENGINE_TEMPLATES(Kind)                                                                   \
    Kind struct Table<AnyController, AnyAction>;                                                               \
    Kind void GeneralTick<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&);                   \
    Kind void FinishTick<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&);                    \
    Kind void Initialize<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&);                    \
    Kind void Start<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&);                         \
    Kind void MarkStarted<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&);                   \
    Kind void ApplyPending<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&);                  \
    Kind void EnterGlobal<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&);                   \
    Kind void ExitGlobal<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&);                    \
    Kind void EnterWaitingGlobal<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&);            \
    Kind void ChangeTo<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex, Cause,    \
                                                 std::size_t, const Event*, Prepare);                          \
    Kind bool EnterDownTo<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex,        \
                                                    StateIndex, StateIndex, Cause, std::size_t, const Event*); \
    Kind void ExitUpTo<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex, StateIndex); \
    Kind void RunPerform<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex);        \
    Kind void Fire<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&,                           \
                                             const Probed<AnyController, AnyAction>&);                         \
    Kind Prepare StagedPrepare<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&) noexcept;     \
    Kind bool SetState<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex, Direct,   \
                                                 Prepare);                                                     \
    Kind void StackChange<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex, Cause); \
    Kind bool DeliverEvent<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, const Event&);    \
    Kind bool DeliverTyped<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, const void*,      \
                                                     const void*, const Event&);                               \
    Kind void CountAbove<AnyController, AnyAction>(const Table<AnyController, AnyAction>&, std::byte*,         \
                                                   StateIndex);                                                \
    Kind void PushLayer<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex);         \
    Kind bool PopLayer<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&);                      \
    Kind void CheckNotBuried<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex,     \
                                                       StateIndex);                                            \
    Kind bool LaneAccepts<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex, Cause, \
                                                    const Prepare&);                                           \
    Kind bool EnterRegions<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex);      \
    Kind void ExitRegionsFrom<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex);   \
    Kind void TickRegions<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&);                   \
    Kind void PassThrough<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&);                   \
    Kind void NestedStep<AnyController, AnyAction>(const ErasedWord*, AnyController&,  \
                                                   const AnyAction&, Runtime&, std::byte*);                    \
    Kind void NestedMachineStep<AnyController, AnyAction>(AnyController&, const AnyAction&, Runtime&)

namespace tickfsm::detail {
TICKFSM_DETAIL_ENGINE_TEMPLATES(extern template);
} // namespace tickfsm::detail
