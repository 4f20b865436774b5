#pragma once
// The general tick path as the typed code sees it: the hook thunks a table
// points to (compiled per kind, here), and the entry points of the general
// path: a tick of a character whose current state needs more than the fast
// step (hooks taking the machine handle, action lists, several chains, a
// NextState request, an attached observer, the first tick), a change or an
// event from outside a tick, and the feature code a table points to (regions,
// pass-through states, the push stack). The general path follows the same
// rules as the fast path, through type-erased hooks; it is defined in the
// library (lib/engine/) and compiled there once, for AnyController/AnyAction
// (engine.hpp), so a file that uses machines parses none of it.

#include <cstddef>
#include <cstdint>

#include "../event.hpp"
#include "../machine.hpp"
#include "table.hpp"
#include "traits.hpp"

namespace tickfsm::detail {

template <class C, class A, class S>
void EnterHook(TickContext<AnyController, AnyAction>& ctx, std::uint32_t offset) {
    CallOnStateEnter(StateObject<S>(ctx.data, offset), Real<C>(*ctx.controller), Real<A>(*ctx.action),
       [&ctx] { return MachineAccess::Make<C, A>(ctx); });
}

template <class C, class A, class S>
void PerformHook(TickContext<AnyController, AnyAction>& ctx, std::uint32_t offset) {
    CallPerform(StateObject<S>(ctx.data, offset), Real<C>(*ctx.controller), Real<A>(*ctx.action),
       [&ctx] { return MachineAccess::Make<C, A>(ctx); });
}

template <class C, class A, class S>
void ExitHook(TickContext<AnyController, AnyAction>& ctx, std::uint32_t offset) {
    CallOnStateExit(StateObject<S>(ctx.data, offset), Real<C>(*ctx.controller), Real<A>(*ctx.action),
       [&ctx] { return MachineAccess::Make<C, A>(ctx); });
}

template <class C, class A, class S>
void PauseHook(TickContext<AnyController, AnyAction>& ctx, std::uint32_t offset) {
    CallOnStatePause(StateObject<S>(ctx.data, offset), Real<C>(*ctx.controller), Real<A>(*ctx.action),
       [&ctx] { return MachineAccess::Make<C, A>(ctx); });
}

template <class C, class A, class S>
void ResumeHook(TickContext<AnyController, AnyAction>& ctx, std::uint32_t offset) {
    CallOnStateResume(StateObject<S>(ctx.data, offset), Real<C>(*ctx.controller), Real<A>(*ctx.action),
       [&ctx] { return MachineAccess::Make<C, A>(ctx); });
}

template <class X>
X& ActionObject(std::byte* data, std::uint32_t offset) noexcept {
    return *std::launder(reinterpret_cast<X*>(data + offset));
}

template <class C, class A, class X>
void ActionEnter(TickContext<AnyController, AnyAction>& ctx, std::uint32_t offset) {
    CallOnEnter(ActionObject<X>(ctx.data, offset), Real<C>(*ctx.controller), Real<A>(*ctx.action),
       [&ctx] { return MachineAccess::Make<C, A>(ctx); });
}

template <class C, class A, class X>
void ActionUpdate(TickContext<AnyController, AnyAction>& ctx, std::uint32_t offset) {
    CallOnUpdate(ActionObject<X>(ctx.data, offset), Real<C>(*ctx.controller), Real<A>(*ctx.action),
       [&ctx] { return MachineAccess::Make<C, A>(ctx); });
}

template <class C, class A, class X>
void ActionExit(TickContext<AnyController, AnyAction>& ctx, std::uint32_t offset) {
    CallOnExit(ActionObject<X>(ctx.data, offset), Real<C>(*ctx.controller), Real<A>(*ctx.action),
       [&ctx] { return MachineAccess::Make<C, A>(ctx); });
}

/// Work to do on the entered state's object after the exit and before the
/// enter of a change: a state entered with arguments is rebuilt here.
struct Prepare {
    void (*run)(const void* context, std::byte* object) = nullptr;
    const void* context = nullptr;
};

// --- The general path's entry points (lib/engine/general_path.hpp) ---

/// Every state's OnStateInit in order (once per machine), then the observer's
/// OnInitialized. Until the machine has started its tick count is unused, so
/// it counts the states initialized: after an OnStateInit that throws, the
/// next call resumes with that state, and no OnStateInit that returned runs twice.
template <class C, class A>
void Initialize(TickContext<C, A>& ctx);

/// One Perform on the general path, by the tick rules.
template <class C, class A>
void GeneralTick(TickContext<C, A>& ctx);

/// A direct change asked for from outside a tick; a machine not started yet
/// initializes and starts in `to`. Returns whether the state changed.
template <class C, class A>
bool SetState(TickContext<C, A>& ctx, StateIndex to, Direct how, Prepare prepare);

/// A push of `to` (Cause::Push) or a pop (Cause::Pop) asked for from outside a tick.
template <class C, class A>
void StackChange(TickContext<C, A>& ctx, StateIndex to, Cause cause);

/// Enters the global state (ctx.global) beside the current one, then applies
/// the change its enter hook asked for. While its hook runs, ctx.running
/// names it, so that it cannot rebuild its own object.
template <class C, class A>
void EnterGlobal(TickContext<C, A>& ctx);

/// Exits the global state (ctx.global): an exit hook like any other, which
/// cannot ask for a change.
template <class C, class A>
void ExitGlobal(TickContext<C, A>& ctx);

/// Refuses `id` as the machine's global state when it is, or a transition
/// could make it, current: the initial state, the current or a buried state,
/// or a transition's target (one object would perform twice a tick).
template <class C, class A>
void CheckGlobal(TickContext<C, A>& ctx, StateIndex id);

/// While the current state is a pass-through state, its transitions (the
/// active path's) are tried again at once, with its time 0; a state passed
/// through twice in one tick is a loop, a ConfigError naming the states.
template <class C, class A>
void PassThrough(TickContext<C, A>& ctx);

/// An event sent from outside a tick: FromAny()'s transition on it first,
/// then the active states' (from the leaf outward); the change happens now,
/// or the observer hears that nothing happened. Returns whether the state changed.
template <class C, class A>
bool DeliverEvent(TickContext<C, A>& ctx, const Event& event);

/// A typed event (a value of class E, `type` its TypeKey) sent from outside a
/// tick: first FromAny()'s transitions on E, then from the leaf outward, the
/// first state with a transition on E whose guard holds takes it (its target
/// receives the payload in OnEvent after its enter hooks), or handles it in
/// place. Returns whether a state took it.
template <class C, class A>
bool DeliverTyped(TickContext<C, A>& ctx, const void* type, const void* payload, const Event& as);

// --- The push stack (lib/engine/push_stack.hpp) ---

/// Refuses, before anything changes, a change that would enter a state a
/// push keeps buried (its object is the buried one's): the states from below
/// `base` down to `to` and on to a leaf.
template <class C, class A>
void CheckNotBuried(TickContext<C, A>& ctx, StateIndex base, StateIndex to);

/// A push: the active path is paused (innermost first) and buried with the
/// leaf's ticks; `to` is then entered from the top (by EnterDownTo).
template <class C, class A>
void PushLayer(TickContext<C, A>& ctx, StateIndex to);

/// A pop: the top layer's active path is exited (innermost first) and the
/// state buried last is current again with its ticks, its path resumed
/// (outermost first). Returns true when no resume hook asked for a change.
template <class C, class A>
bool PopLayer(TickContext<C, A>& ctx, std::size_t condition);

// --- Parallel regions (lib/engine/regions.hpp) ---

/// Enters every region of parallel state `parallel`, in order, each down to
/// its leaf by its initial state or history. Returns false when an entered
/// state asked for a change its region cannot make (it waits in ctx.pending).
template <class C, class A>
bool EnterRegions(TickContext<C, A>& ctx, StateIndex parallel);

/// Exits the regions of a parallel state from `region` on, the last first.
template <class C, class A>
void ExitRegionsFrom(TickContext<C, A>& ctx, StateIndex region);

/// Which lane makes the change to `to`: this one, an enclosing one, or the
/// lane of an active region below it (which makes it at once, as a direct
/// change or event from outside reaches a region's state). Anything else
/// enters a region from outside it without its parallel state, or pushes or
/// pops in a region: a ConfigError naming the states.
template <class C, class A>
LaneMove LaneAccepts(TickContext<C, A>& ctx, StateIndex to, Cause cause, std::size_t condition, const Event* event,
                     const Prepare& prepare);

/// The regions of the lane's parallel leaf tick, in the order written. A
/// change one of them makes that leaves it is made here (or handed on out),
/// and the regions after it wait for the next tick.
template <class C, class A>
void TickRegions(TickContext<C, A>& ctx);

} // namespace tickfsm::detail
