#pragma once
// The general path (declared in tick.hpp, defined in lib/engine/ with the push
// stack, regions and the nested step) and the table are compiled once for
// every kind of machine, in the library (lib/engine.cpp): this header declares
// the instantiations typed code calls, so that a file that uses machines
// compiles none of it. Every header whose typed code calls into the general
// path includes it.

#include <cstddef>

#include "../event.hpp"
#include "tick.hpp"

#define TICKFSM_DETAIL_ENGINE_TEMPLATES(Kind)                                                                   \
    Kind struct Table<AnyController, AnyAction>;                                                               \
    Kind void Initialize<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&);                    \
    Kind void GeneralTick<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&);                   \
    Kind bool SetState<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex, Direct,   \
                                                 Prepare);                                                     \
    Kind void StackChange<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex, Cause); \
    Kind void EnterGlobal<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&);                   \
    Kind void ExitGlobal<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&);                    \
    Kind void CheckGlobal<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex);       \
    Kind void PassThrough<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&);                   \
    Kind bool DeliverEvent<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, const Event&);    \
    Kind bool DeliverTyped<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, const void*,      \
                                                     const void*, const Event&);                               \
    Kind void CheckNotBuried<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex,     \
                                                       StateIndex);                                            \
    Kind void PushLayer<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex);         \
    Kind bool PopLayer<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, std::size_t);        \
    Kind bool EnterRegions<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex);      \
    Kind void ExitRegionsFrom<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex);   \
    Kind LaneMove LaneAccepts<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&, StateIndex, Cause, \
                                                        std::size_t, const Event*, const Prepare&);           \
    Kind void TickRegions<AnyController, AnyAction>(TickContext<AnyController, AnyAction>&)

namespace tickfsm::detail {
TICKFSM_DETAIL_ENGINE_TEMPLATES(extern template);
} // namespace tickfsm::detail
