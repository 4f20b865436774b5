#pragma once
// tickfsm::Machine<Controller, Action>: the handle a hook may take as its last
// parameter, to reach the machine that runs it.

#include <cstdint>
#include <string_view>

#include <fmt/format.h>

#include "detail/table.hpp"
#include "event.hpp"
#include "observer.hpp"

namespace tickfsm {

namespace detail {

/// Everything the general tick path and a Machine handle need for one character.
template <class C, class A>
struct TickContext {
    const Table<C, A>* table = nullptr;
    Runtime* rt = nullptr;
    C* controller = nullptr;
    const A* action = nullptr;
    std::byte* data = nullptr;
    StateIndex* next = nullptr; // where this character's NextState request is kept
    Observer* observer = nullptr;
    std::string_view name;
    StateIndex pending = kNoState; // a change asked for by the hook running now
    Cause pending_cause = Cause::Direct;
    const Event* pending_event = nullptr;
    bool in_exit = false;
};

struct MachineAccess;

} // namespace detail

/// The machine as a hook sees it: take `tickfsm::Machine<Controller, Action>& m`
/// as the last parameter of OnStateEnter, Perform, OnStateExit (or an action's
/// OnEnter, OnUpdate, OnExit). It lives for the duration of that call only: it
/// cannot be copied or moved, so it cannot be kept by accident.
template <class Controller, class Action>
class Machine {
public:
    Machine(const Machine&) = delete;
    Machine& operator=(const Machine&) = delete;

    /// If the current state has a transition on `event`, the machine takes it as
    /// soon as this hook returns (the rest of the state's actions are skipped
    /// this time); otherwise nothing changes and the observer hears of it. The
    /// last change asked for in one hook wins. Not allowed from an exit hook.
    void SendEvent(const Event& event) {
        CheckNotLeaving("SendEvent");
        const auto* edge = ctx_.table->FindEvent(ctx_.rt->state, event);
        if (!edge) {
            if (ctx_.observer)
                ctx_.observer->OnUnhandledEvent(ctx_.name, ctx_.table->NameOf(ctx_.rt->state), event);
            return;
        }
        ctx_.pending = edge->to;
        ctx_.pending_cause = Cause::Event;
        ctx_.pending_event = &edge->event;
    }

    /// Asks for T to follow: at the start of the next Perform the machine moves
    /// to T as that tick's one transition (its conditions are not tried), then T
    /// performs. A second request before then replaces the first.
    template <class T>
    void NextState() {
        CheckNotLeaving("NextState");
        const detail::StateIndex id = ctx_.table->Find(detail::TypeKey<T>());
        if (id == detail::kNoState)
            ctx_.table->Fail(fmt::format("NextState<{}>(): {} is not a state of this machine",
                                         detail::StateName<T>(), detail::StateName<T>()));
        *ctx_.next = id;
        ctx_.rt->flags = static_cast<std::uint16_t>(ctx_.rt->flags | detail::kNextPending);
    }

    /// Seconds in the current state (TicksInState() * fixed_dt).
    float TimeInState() const noexcept { return detail::TimeOf(ctx_.rt->ticks, ctx_.table->dt); }
    /// Ticks in the current state (0 on the tick it was entered).
    std::uint32_t TicksInState() const noexcept { return ctx_.rt->ticks; }
    /// True when S is the current state.
    template <class S>
    bool IsIn() const noexcept {
        return ctx_.table->keys[ctx_.rt->state] == detail::TypeKey<S>();
    }
    std::string_view CurrentStateName() const noexcept { return ctx_.table->NameOf(ctx_.rt->state); }
    Controller& GetController() noexcept { return *ctx_.controller; }
    const Action& GetAction() const noexcept { return *ctx_.action; }

private:
    friend struct detail::MachineAccess;
    explicit Machine(detail::TickContext<Controller, Action>& ctx) noexcept : ctx_(ctx) {}

    void CheckNotLeaving(std::string_view what) const {
        if (ctx_.in_exit)
            ctx_.table->Fail(fmt::format("{}() called from an exit hook of state {}: a state cannot change the "
                                         "machine's state while it is being left",
                                         what, ctx_.table->NameOf(ctx_.rt->state)));
    }

    detail::TickContext<Controller, Action>& ctx_;
};

namespace detail {
struct MachineAccess {
    template <class C, class A>
    static Machine<C, A> Make(TickContext<C, A>& ctx) noexcept {
        return Machine<C, A>(ctx);
    }
};
} // namespace detail

} // namespace tickfsm
