#pragma once
// A StateManager's configuration: the checks every configuring call makes,
// its steps along the shared configuration path, and the keyed states and
// transitions that only a private table holds.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

#include "owned.hpp"
#include "../event.hpp"
#include "config.hpp"
#include "format.hpp"
#include "manager_storage.hpp"
#include "runtime.hpp"
#include "table.hpp"

namespace tickfsm::detail {

/// What `From<S>()` or `SetInitialState<S>()` starts, as constants (see EdgeCall).
struct ChainCall {
    std::string_view (*state)() noexcept; // S's name
    const void* state_key;                // TypeKey of S
    const void* step_key;                 // TypeKey of the step (FromStep<S> or InitStep<S>)
    StepRecord::Replay replay;            // the step on a shared table
    bool initial;                         // SetInitialState<S>() rather than From<S>()
};

/// What one `From<S>().To<T>(...)` (or ForceTo, ToWhenDone, Push, Pop)
/// adds, as constants: a builder keeps one per transition in read-only
/// data and BeginEdge makes every check and step from it, so that a
/// transition costs a call of code rather than a copy of these checks.
struct EdgeCall {
    std::string_view (*from)() noexcept; // S's name
    std::string_view (*to)() noexcept;   // T's name
    const char* api;                     // "To", "ForceTo", "ToWhenDone", "Push" or "Pop"
    const void* from_key;                // TypeKey of S
    const void* old_chain;               // TypeKey of the chain the builder extends
    const void* new_chain;               // TypeKey of the chain with this transition
    StepRecord::Replay replay;           // rebuilds the transition on a shared table; null if it holds data
    bool stack;                          // a push or a pop: needs SetPushCapacity first
};

// A StateManager's configuration steps that take no type of the kind's,
// compiled once in lib/engine.cpp; `kind` is the kind's kKindCode.

/// The refusal of a configuring call (`what` names it) on a frozen machine.
[[noreturn]] void FailFrozen(std::string_view what, const KindCode& kind);

/// A shareable step: the machine moves along `registry`'s path to the node
/// for `step`, which it returns.
StepNode* Advance(Seat& seat, const StepRecord& step, Registry& registry);

/// The checks and the shared step of a new chain of S's transitions: the
/// node the machine moves to on the shared path, or null when it
/// configures a private table (where the caller adds the chain). Refuses a
/// frozen machine, and a second initial state on the shared path.
StepNode* BeginChain(Seat& seat, const ChainCall& call, const KindCode& kind);

/// The checks and the shared step of a transition: the machine's new
/// position on the shared path if the transition took a step along it (the
/// builder at `token` is where the machine is, and the condition is
/// rebuilt from `call.replay` and `function`), else null after the checks
/// that a private table's transition needs, with the machine's table made
/// private. Refuses a frozen machine, a push or pop without a stack and a
/// builder used twice before anything changes.
const void* BeginEdge(Seat& seat, const void* token, std::size_t chain, const EdgeCall& call, void (*function)(),
                      const KindCode& kind);

/// Closes the configuration: the table is resolved, complete and final.
void Freeze(Seat& seat, const KindCode& kind);

template <class C, class A>
struct ManagerConfig {
    using Storage = ManagerStorage<C, A>;
    using MachineTable = KindTable<C, A>;
    using Record = StepRecord;
    using Node = StepNode;

    /// Refuses configuration once the machine is frozen (its first tick, a
    /// snapshot): `what` names the call, and is only formatted on that path.
    template <class What>
    static void CheckConfigurable(const Seat& seat, What&& what) {
        if (seat.rt.flags & kFrozen) [[unlikely]]
            FailFrozen(what());
    }
    [[noreturn]] static void FailFrozen(std::string_view what) { detail::FailFrozen(what, kKindCode<C, A>); }

    /// True while the machine configures along the shared path (its table may be shared).
    static bool Sharing(Seat& seat) { return Storage::BlockOf(seat)->node != nullptr; }

    /// A shareable step: move along the registry's path.
    static Node* Step(Seat& seat, const Record& step) { return Advance(seat, step, RegistryOf<C, A>()); }

    /// A shareable step whose mistakes must show at the call: the table after
    /// it is built (and published for every later machine) before this
    /// machine moves on, so that a ConfigError leaves it where it was.
    static void CheckedStep(Seat& seat, const Record& step) {
        Node* next = RegistryOf<C, A>().Child(Storage::BlockOf(seat)->node, step);
        MachineTable::Release(SharedTableAt<C, A>(next));
        Storage::BlockOf(seat)->node = next;
        Storage::BlockOf(seat)->stale = Storage::TableOf(seat) != nullptr;
    }

    /// A step that its key and replay say all of: taken along the shared path
    /// (true; with `checked`, as CheckedStep takes it), or false when the
    /// machine configures a private table, where the caller applies it.
    static bool SharedStep(Seat& seat, const void* key, typename Record::Replay replay, bool checked = false) {
        if (!Sharing(seat)) return false;
        Record step;
        step.key = key;
        step.replay = replay;
        if (checked) CheckedStep(seat, step);
        else Step(seat, step);
        return true;
    }

    using ChainCall = detail::ChainCall;
    using EdgeCall = detail::EdgeCall;

    /// See detail::BeginChain.
    static Node* BeginChain(Seat& seat, const ChainCall& call) {
        return detail::BeginChain(seat, call, kKindCode<C, A>);
    }

    /// See detail::BeginEdge.
    static const void* BeginEdge(Seat& seat, const void* token, std::size_t chain, const EdgeCall& call,
                                 void (*function)()) {
        return detail::BeginEdge(seat, token, chain, call, function, kKindCode<C, A>);
    }

    /// In a shared configuration, refuse a second transition from S on `event` now.
    template <class S, class T>
    static void CheckNoEventOnPath(Seat& seat, const Event& event) {
        for (const Node* n = Storage::BlockOf(seat)->node; n && n->parent; n = n->parent)
            if (n->step.event_state == TypeKey<S>() && n->step.event == event)
                MachineTable::Fail(MessageText(Message::EventTransitionTwiceShared, StateName<S>(), EventText(event),
                                               StateName<T>(), StateName<S>(), EventText(event)));
    }

    /// See detail::Freeze.
    static void Freeze(Seat& seat) { detail::Freeze(seat, kKindCode<C, A>); }

    // --- keyed states: always on a private table -----------------------------

    template <class K>
    static StateIndex KeyedId(Seat& seat, K key, std::string_view api) {
        const StateIndex id = Storage::Resolved(seat).FindKey(TypeKey<K>(), static_cast<std::uint64_t>(key));
        if (id == kNoState) MachineTable::Fail(MessageText(Message::NoStateUnderKey, api, KeyText(key)));
        return id;
    }

    template <class S, bool kFromPrototype, class K>
    static void AddKeyed(Seat& seat, K key, detail::Shared<const S> prototype) {
        std::string_view name;
        detail::Owned<const Text> owned;
        if constexpr (std::is_enum_v<K>) name = EnumName(key);
        if (name.empty()) {
            owned = detail::MakeOwned<const Text>(KeyText(key));
            name = *owned;
        }
        Storage::ApplyPrivately(seat, [&](MachineTable& table) {
            const StateIndex id = table.template Add<S, kFromPrototype>(nullptr, name, std::move(prototype));
            table.SetKey(id, TypeKey<K>(), static_cast<std::uint64_t>(key));
            table.meta[id].owned_name = std::move(owned);
        });
    }

    template <class K, class F>
    static void AddKeyedEdge(Seat& seat, StateIndex from, std::size_t chain, K key, F&& condition, bool forced,
                             std::string_view name = {}) {
        CheckConfigurable(seat, [&] {
            return MessageText(Message::KeyedFromToCall, Storage::TableOf(seat)->NameOf(from), KeyText(key));
        });
        const StateIndex to = KeyedId(seat, key, "To");
        MachineTable& table = *Storage::TableOf(seat);
        auto& erased = static_cast<ErasedChain<C, A>&>(*table.meta[from].chains[chain]);
        erased.Add(std::forward<F>(condition), Target{to, 0, table.meta[to].offset}, forced);
        const std::size_t edge = erased.count - 1;
        if constexpr (std::is_same_v<std::decay_t<F>, Always>) table.NoteAlways(from, chain, edge);
        if (!name.empty()) ApplyConditionName(table, from, chain, edge, name);
        table.finalized = false;
    }

    template <class K>
    static void AddKeyedEvent(Seat& seat, StateIndex from, const Event& event, K key) {
        CheckConfigurable(seat, [&] {
            return MessageText(Message::KeyedFromOnToCall, Storage::TableOf(seat)->NameOf(from), EventText(event),
                               KeyText(key));
        });
        const StateIndex to = KeyedId(seat, key, "On");
        MachineTable& table = *Storage::TableOf(seat);
        if (const EventEdge* existing = table.FindEvent(from, event))
            MachineTable::Fail(MessageText(Message::KeyedEventTransitionTwice, table.NameOf(from), EventText(event),
                                           KeyText(key), table.NameOf(from), EventText(event),
                                           table.NameOf(existing->to)));
        table.meta[from].events.push_back(EventEdge{event, to});
        table.finalized = false;
    }

    template <class X, class... Args>
    static void AddKeyedAction(Seat& seat, StateIndex from, Args&&... args) {
        CheckConfigurable(seat, [&] {
            return MessageText(Message::KeyedFromDoCall, Storage::TableOf(seat)->NameOf(from), TypeName<X>());
        });
        auto prototype = detail::MakeShared<const X>(std::forward<Args>(args)...);
        Storage::ApplyPrivately(seat,
                                [&](MachineTable& table) { ApplyDoAt<C, A, X>(table, from, std::move(prototype)); });
    }
};

} // namespace tickfsm::detail
