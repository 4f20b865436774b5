#pragma once
// tickfsm::Machine<Controller, Action>: the handle a hook may take as its last
// parameter, to reach the machine that runs it.

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>
#include <string_view>

#include "detail/format.hpp"

#include "detail/table.hpp"
#include "event.hpp"
#include "observer.hpp"
#include "state_ref.hpp"

namespace tickfsm {

namespace detail {

/// Room for the arguments of one state change asked from a hook with
/// arguments (`m.ForceSetState<Walk>(path)`): they are kept here until the
/// change applies, so that the state's fresh object is built between the old
/// state's exit and its enter, and never for a request that a later one
/// replaced. Kept in the tick's context: no allocation.
inline constexpr std::size_t kStagedBytes = 64;

/// Argument I that Staged keeps.
template <std::size_t I, class X>
struct KeptArg {
    template <class Y>
    explicit KeptArg(Y&& y) : value(std::forward<Y>(y)) {}
    X value;
};
template <class Indices, class... Xs>
struct KeptArgs;
/// The arguments Staged keeps, one base each (what a std::tuple would hold).
template <std::size_t... I, class... Xs>
struct KeptArgs<std::index_sequence<I...>, Xs...> : KeptArg<I, Xs>... {
    template <class... Args>
    explicit KeptArgs(Args&&... args) : KeptArg<I, Xs>(std::forward<Args>(args))... {}
    /// Builds a T at `object` from the arguments, moved out.
    template <class T>
    void Build(std::byte* object) {
        RebuildState<T>(object, std::move(static_cast<KeptArg<I, Xs>&>(*this).value)...);
    }
};

/// The arguments of the change a hook asked for, waiting for it to apply.
/// Only ever moved while empty (when the context is returned by value).
class Staged {
public:
    Staged() = default;
    Staged(Staged&&) noexcept {}
    Staged& operator=(Staged&&) = delete;
    ~Staged() { Clear(); }

    /// Keeps `args` (moved or copied) to build a T from them later; any earlier arguments go.
    template <class T, class... Args>
    void Stage(Args&&... args) {
        using Kept = KeptArgs<std::index_sequence_for<Args...>, std::decay_t<Args>...>;
        static_assert(sizeof(Kept) <= kStagedBytes && alignof(Kept) <= alignof(std::max_align_t),
                      "tickfsm: Machine::TrySetState/TryResetState/ForceSetState<T>(args...) from a hook keeps the "
                      "arguments until the change applies, in 64 bytes: pass fewer or smaller arguments (a pointer, "
                      "an index), or enter T with arguments from outside the tick");
        Clear();
        ::new (static_cast<void*>(bytes)) Kept(std::forward<Args>(args)...);
        drop = [](void* kept) noexcept { static_cast<Kept*>(kept)->~Kept(); };
        build = [](void* kept, std::byte* object) { static_cast<Kept*>(kept)->template Build<T>(object); };
    }
    /// Keeps a copy of `value` (a typed event's), readable through Kept(); any earlier one goes.
    template <class E>
    void Keep(const E& value) {
        static_assert(sizeof(E) <= kStagedBytes && alignof(E) <= alignof(std::max_align_t),
                      "tickfsm: Machine::SendEvent(value) from a hook keeps a copy of the value until the change "
                      "applies, in 64 bytes: send a smaller value (an index, a pointer), or send it from outside "
                      "the tick");
        Clear();
        ::new (static_cast<void*>(bytes)) E(value);
        drop = [](void* kept) noexcept { static_cast<E*>(kept)->~E(); };
    }
    /// The value Keep copied.
    const void* Kept() const noexcept { return bytes; }

    /// Builds the kept state object at `object` from the kept arguments, which then go.
    void Build(std::byte* object) {
        struct Done { // the arguments go even if the constructor throws
            Staged& staged;
            ~Done() { staged.Clear(); }
        } done{*this};
        build(bytes, object);
    }
    bool Empty() const noexcept { return drop == nullptr; }
    void Clear() noexcept {
        if (drop) drop(bytes);
        drop = nullptr;
        build = nullptr;
    }

private:
    alignas(std::max_align_t) std::byte bytes[kStagedBytes];
    void (*drop)(void*) noexcept = nullptr;
    void (*build)(void*, std::byte*) = nullptr;
};

/// Everything the general tick path and a Machine handle need for one character.
template <class C, class A>
struct TickContext {
    static_assert(kErased<C, A>, "tickfsm internal: the general path is made for AnyController and AnyAction");
    const Table<C, A>* table = nullptr;
    Runtime* rt = nullptr;          // the Runtime of the lane that runs: the machine's, or a region's
    Runtime* main = nullptr;        // the machine's own Runtime
    StateIndex lane = kNoState;     // the region whose lane runs (kNoState: the machine's own)
    C* controller = nullptr;
    const A* action = nullptr;
    std::byte* data = nullptr;
    StateIndex* next = nullptr;     // where this character's NextState request is kept
    StateIndex* previous = nullptr; // where the state changed from is kept (KeepPreviousState only)
    StateIndex global = kNoState;   // the global state, if any
    Observer* observer = nullptr;
    std::string_view name;
    StateIndex pending = kNoState; // a change asked for by the hook running now
    Cause pending_cause = Cause::Direct;
    std::uint32_t pending_condition = 0; // with Cause::Condition: the index of a region's transition handed out
    const Event* pending_event = nullptr;
    Staged staged;                 // the arguments of the pending change, if it has any
    StateIndex running = kNoState; // the global state while one of its hooks runs
    StateIndex hook = kNoState;    // the active state whose hook or actions run (Machine's own-time queries)
    // A typed event's payload for the state its transition enters (see DeliverTyped).
    void (*deliver)(C&, std::byte* data, std::uint32_t offset, const void* payload) = nullptr;
    const void* payload = nullptr;
    StateIndex receiver = kNoState;
    StateIndex owner = kNoState; // whose transition the change being made is (TransitionInfo::owner)
    Staged mail; // a copy of the typed event a hook sent, until its change applies
    bool in_exit = false;
};

struct MachineAccess;

/// How a direct change treats the gates and the current state.
enum class Direct : std::uint8_t {
    Try,      // through the gates; no change if already in the state
    TryReset, // through the gates; re-enters if already in the state
    Force,    // skips the gates; re-enters if already in the state
};

/// The state a direct change to `to` leaves: the current leaf of the lane
/// that makes it (a region's, for a state in an active region; else the
/// machine's own leaf).
template <class C, class A>
StateIndex DirectFrom(const TickContext<C, A>& ctx, StateIndex to) {
    if (!ctx.table->parallel) return ctx.rt->state;
    const StateIndex region = RegionOf(ctx.table->tree, to);
    if (region == kNoState) return ctx.main->state;
    if (!ctx.table->RegionRuns(ctx.main->state, region, ctx.data)) return ctx.rt->state;
    const StateIndex leaf = LaneOf(ctx.table->tree[region], ctx.data).state;
    return leaf != kNoState ? leaf : ctx.rt->state; // not entered yet: the change is refused on its way in
}

/// Whether a direct change from the current state to `to` may happen now.
template <class C, class A>
bool DirectAllowed(const TickContext<C, A>& ctx, StateIndex to, Direct how) {
    const StateIndex from = DirectFrom(ctx, to);
    if (how == Direct::Try && ctx.table->Active(ctx.main->state, to, ctx.data)) return false; // already in it

    if (how == Direct::Force || ctx.table->Allowed(from, to, *ctx.controller, ctx.data)) return true;
    if (ctx.observer) ctx.observer->OnRefused(ctx.name, ctx.table->NameOf(from), ctx.table->NameOf(to));
    return false;
}

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

    /// If FromAny(), a region of a parallel current state (the first in order
    /// whose path has one), or the current state (or, nested, the innermost
    /// active state that has one) has a transition on `event`, the machine takes it as
    /// soon as this hook returns (the rest of the state's actions are skipped
    /// this time); otherwise nothing changes and the observer hears of it. The
    /// last change asked for in one hook wins. Not allowed from an exit hook.
    void SendEvent(const Event& event) {
        if (context.in_exit) [[unlikely]]
            FailLeaving(detail::EventText(event));
        const auto* edge = context.table->FindAnyEvent(context.main->state, event, context.data);
        if (!edge) { // a parallel leaf's regions first, then outward
            auto in_region = [&](detail::StateIndex leaf) { return context.table->FindEventOutward(leaf, event); };
            edge = context.table->FindInRegions(context.rt->state, context.data, in_region);
        }
        if (!edge && context.rt->state != detail::kNoState)
            edge = context.table->FindEventOutward(context.rt->state, event, true);
        if (!edge) {
            if (context.observer)
                context.observer->OnUnhandledEvent(context.name, context.table->NameOf(context.rt->state), event);
            return;
        }
        context.staged.Clear();
        context.deliver = nullptr;
        context.pending = edge->to;
        context.pending_cause = Cause::Event;
        context.pending_event = &edge->event;
    }

    /// Sends a typed event (a value of class E, at most 64 bytes) from a hook:
    /// the transition on it (FromAny()'s first, then from the current state
    /// outward, the first whose guard holds) is taken when this hook returns,
    /// its target receiving a copy of the value in OnEvent; a state that
    /// handles E in place receives it now. Not allowed from an exit hook.
    template <class E>
        requires detail::TypedEventValue<E>
    void SendEvent(const E& value) {
        if (context.in_exit) [[unlikely]]
            FailLeaving(detail::TypeName<E>());
        detail::StateIndex holder = detail::kNoState;
        const auto* edge = context.table->FindAnyTyped(context.main->state, detail::TypeKey<E>(), *context.controller,
                                                       &value, context.data);
        if (!edge) { // a parallel leaf's regions first, then outward
            auto in_region = [&](detail::StateIndex leaf) {
                return context.table->FindTypedOutward(leaf, detail::TypeKey<E>(), *context.controller, &value, holder);
            };
            edge = context.table->FindInRegions(context.rt->state, context.data, in_region);
        }
        if (!edge && context.rt->state != detail::kNoState)
            edge = context.table->FindTypedOutward(context.rt->state, detail::TypeKey<E>(), *context.controller, &value,
                                                   holder, true);
        if (!edge) {
            if (context.observer)
                context.observer->OnUnhandledEvent(context.name, context.table->NameOf(context.rt->state), detail::kTypedEvent<E>);
            return;
        }
        if (edge->to == detail::kNoState) { // handled in place
            if (edge->deliver) edge->deliver(*context.controller, context.data, context.table->meta[holder].offset, &value);
            return;
        }
        context.staged.Clear();
        Pend(edge->to);
        context.pending_cause = Cause::Event;
        context.pending_event = &edge->event;
        context.mail.Keep(value);
        context.deliver = edge->deliver;
        context.payload = context.mail.Kept();
        context.receiver = edge->to;
    }

    /// Asks for T to follow: at the start of the next Perform the machine moves
    /// to T as that tick's one transition (its conditions are not tried), then T
    /// performs. A second request before then replaces the first.
    template <class T>
    void NextState() {
        CheckNotLeaving("NextState");
        CheckNotInRegion("NextState");
        const detail::StateIndex id = context.table->Find(detail::TypeKey<T>());
        if (id == detail::kNoState)
            context.table->Fail(detail::MessageText(detail::Message::NotAStateOfMachine, "NextState",
                                                    detail::StateName<T>(), detail::StateName<T>(),
                                                    detail::StateName<T>(), detail::StateName<T>()));
        *context.next = id;
        context.rt->flags = static_cast<std::uint16_t>(context.rt->flags | detail::kNextPending);
    }

    /// Asks to change to T through the gates (the current state's CanExitState,
    /// T's CanEnterState), applied when this hook returns. Returns false, and
    /// asks nothing, if already in T or a gate refuses. Arguments rebuild T's
    /// object before it is entered (T must not be the current state then).
    template <class T, class... Args>
    bool TrySetState(Args&&... args) {
        return Ask<T>(detail::Direct::Try, std::forward<Args>(args)...);
    }
    /// Like TrySetState, but re-enters T if it is the current state.
    template <class T, class... Args>
    bool TryResetState(Args&&... args) {
        return Ask<T>(detail::Direct::TryReset, std::forward<Args>(args)...);
    }
    /// Changes to T when this hook returns, skipping the gates (re-enters T if current).
    template <class T, class... Args>
    void ForceSetState(Args&&... args) {
        Ask<T>(detail::Direct::Force, std::forward<Args>(args)...);
    }

    /// Marks the current state done until it is left: a ToWhenDone transition
    /// of a state that holds it no longer waits for its CanExitState.
    void Done() noexcept { context.rt->flags = static_cast<std::uint16_t>(context.rt->flags | detail::kDone); }

    /// Buries the current state under T when this hook returns (see
    /// StateManager::Push); the last change asked for in one hook wins.
    template <class T>
    void Push() {
        CheckNotLeaving("Push");
        const detail::StateIndex id = context.table->Find(detail::TypeKey<T>());
        if (id == detail::kNoState)
            context.table->Fail(detail::MessageText(detail::Message::NotAStateOfMachine, "Push", detail::StateName<T>(),
                                                    detail::StateName<T>(), detail::StateName<T>(),
                                                    detail::StateName<T>()));
        context.staged.Clear();
        Pend(id);
        context.pending_cause = Cause::Push;
    }
    /// Leaves the top state for the one buried last when this hook returns
    /// (see StateManager::Pop).
    void Pop() {
        CheckNotLeaving("Pop");
        context.staged.Clear();
        Pend(context.rt->state);
        context.pending_cause = Cause::Pop;
    }

    /// Goes back to the state the last change came from when this hook returns,
    /// through the gates unless `force`. Needs KeepPreviousState(); returns
    /// false (and asks nothing) with no previous state or when a gate refuses.
    bool RevertToPreviousState(bool force = false) {
        CheckNotInRegion("RevertToPreviousState");
        if (!context.previous) context.table->Fail(detail::MessageText(detail::Message::RevertNeedsPreviousState));
        if (*context.previous == detail::kNoState) return false;
        return AskIndex(*context.previous, force ? detail::Direct::Force : detail::Direct::Try);
    }

    /// NextState, TrySetState, TryResetState and ForceSetState for a keyed state.
    template <class K>
        requires StateKey<K>
    void NextState(K key) {
        CheckNotLeaving("NextState");
        CheckNotInRegion("NextState");
        *context.next = KeyedId(key);
        context.rt->flags = static_cast<std::uint16_t>(context.rt->flags | detail::kNextPending);
    }
    template <class K>
        requires StateKey<K>
    bool TrySetState(K key) {
        return AskIndex(KeyedId(key), detail::Direct::Try);
    }
    template <class K>
        requires StateKey<K>
    bool TryResetState(K key) {
        return AskIndex(KeyedId(key), detail::Direct::TryReset);
    }
    template <class K>
        requires StateKey<K>
    void ForceSetState(K key) {
        AskIndex(KeyedId(key), detail::Direct::Force);
    }

    // In a region, "the current state" below is the region's: the leaf of the
    // lane the hook runs in.

    /// Seconds in the state whose hook or action runs (TicksInState() * fixed_dt, in double).
    double TimeInState() const noexcept { return detail::SecondsOf(TicksInState(), context.table->dt); }
    /// Ticks in the state whose hook or action runs, 0 on the tick it was
    /// entered: a composite's own time, which its children's changes do not
    /// restart, as its conditions see it; elsewhere (the global state's hooks,
    /// a condition) the current state's.
    std::uint32_t TicksInState() const noexcept {
        if (context.hook == detail::kNoState || context.hook == context.rt->state || context.hook == context.running)
            return context.rt->ticks; // a global state keeps no time of its own
        return context.table->TicksOf(context.rt->state, context.rt->ticks, context.hook, context.data);
    }
    /// The name of the state whose hook or action runs (its own, a composite's
    /// rather than its leaf's); elsewhere CurrentStateName().
    std::string_view StateName() const noexcept {
        return context.table->NameOf(context.hook == detail::kNoState ? context.rt->state : context.hook);
    }
    /// True when S is active: the current state, one that holds it (nested
    /// states), or one active in a region (parallel states).
    template <class S>
    bool IsIn() const noexcept {
        return context.table->template IsIn<S>(context.main->state, context.data);
    }
    std::string_view CurrentStateName() const noexcept { return context.table->NameOf(context.rt->state); }
    /// True when the keyed state `key` is active (see IsIn<S>()).
    template <class K>
        requires StateKey<K>
    bool IsIn(K key) const noexcept {
        return context.table->IsInKey(context.main->state, detail::TypeKey<K>(), static_cast<std::uint64_t>(key),
                                      context.data);
    }
    /// The current state as a gate would see it (type, key, name).
    StateRef CurrentState() const noexcept { return context.table->Ref(context.rt->state); }
    Controller& GetController() noexcept { return detail::Real<Controller>(*context.controller); }
    const Action& GetAction() const noexcept { return detail::Real<Action>(*context.action); }

private:
    friend struct detail::MachineAccess;

    template <class K>
    detail::StateIndex KeyedId(K key) const {
        const detail::StateIndex id = context.table->FindKey(detail::TypeKey<K>(), static_cast<std::uint64_t>(key));
        if (id == detail::kNoState)
            context.table->Fail(detail::MessageText(detail::Message::NoStateUnderKeyInHook, detail::KeyText(key)));
        return id;
    }

    bool AskIndex(detail::StateIndex id, detail::Direct how) {
        CheckNotLeaving("TrySetState/TryResetState/ForceSetState");
        if (!detail::DirectAllowed(context, id, how)) return false;
        context.staged.Clear();
        Pend(id);
        return true;
    }

    /// The change to `id` happens when the running hook returns.
    /// The last change asked for wins, with the arguments staged for it (or none).
    void Pend(detail::StateIndex id) noexcept {
        context.deliver = nullptr; // a typed event's payload goes with the request it came with
        context.pending = id;
        context.pending_cause = Cause::Direct;
        context.pending_event = nullptr;
    }

    template <class T, class... Args>
    bool Ask(detail::Direct how, Args&&... args) {
        CheckNotLeaving("TrySetState/TryResetState/ForceSetState");
        const detail::StateIndex id = context.table->Find(detail::TypeKey<T>());
        if (id == detail::kNoState)
            context.table->Fail(detail::MessageText(detail::Message::SetStateNotAState, detail::StateName<T>(),
                                                    detail::StateName<T>()));
        if (!detail::DirectAllowed(context, id, how)) return false;
        if constexpr (sizeof...(Args) > 0) {
            if (context.table->Active(context.main->state, id, context.data) || id == context.running)
                context.table->Fail(
                    detail::MessageText(detail::Message::EnterWithArgumentsFromOwnHook, detail::StateName<T>()));
            context.staged.template Stage<T>(std::forward<Args>(args)...); // built when the change applies
        } else {
            context.staged.Clear();
        }
        Pend(id);
        return true;
    }

    explicit Machine(detail::TickContext<detail::AnyController, detail::AnyAction>& running) noexcept
        : context(running) {}

    void CheckNotLeaving(std::string_view what) const {
        if (context.in_exit)
            context.table->Fail(detail::MessageText(detail::Message::ChangeFromExitHook, what,
                                                    context.table->NameOf(context.rt->state)));
    }

    /// SendEvent(`event`) refused from an exit or pause hook.
    [[noreturn]] void FailLeaving(std::string_view event) const {
        context.table->Fail(detail::MessageText(detail::Message::SendEventFromExitHook, event,
                                                context.table->NameOf(context.rt->state)));
    }

    void CheckNotInRegion(std::string_view what) const {
        if (context.lane != detail::kNoState)
            context.table->Fail(detail::MessageText(detail::Message::NextStateInRegion, what,
                                                    context.table->NameOf(context.rt->state),
                                                    context.table->NameOf(context.lane)));
    }

    detail::TickContext<detail::AnyController, detail::AnyAction>& context;
};

namespace detail {
struct MachineAccess {
    template <class C, class A>
    static Machine<C, A> Make(TickContext<AnyController, AnyAction>& ctx) noexcept {
        return Machine<C, A>(ctx);
    }
};
} // namespace detail

} // namespace tickfsm
