#pragma once
// StateManager<Controller, Action>: the fluent, fixed-tick state machine of
// tickfsm. Subclass it per character, configure transitions in the
// constructor, call Perform once per fixed tick.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "config_error.hpp"
#include "detail/table.hpp"
#include "detail/traits.hpp"

namespace tickfsm {

/// A state of one machine, as its queries name it (`IdOf<S>()`, `WouldTransition`).
struct StateId {
    std::uint16_t value = detail::kNoState;
    /// False for the id of a type that is not a state of the machine.
    constexpr bool Valid() const noexcept { return value != detail::kNoState; }
    friend constexpr bool operator==(StateId, StateId) = default;
};

template <class Controller, class Action>
class StateManager;

/// Returned by `SetInitialState<S>()` and `From<S>()`: each `To<T>(condition)`
/// adds one transition from S, tried in the order written, and returns the
/// builder for the next one. The condition types are kept in the builder's type
/// so that S's whole tick compiles into one function.
template <class Controller, class Action, class S, class... Edges>
class TransitionBuilder {
public:
    /// Adds the transition S -> T taken when `condition` holds. Accepted forms:
    /// bool(const Controller&, const Action&, float timeInState),
    /// bool(const Controller&, const Action&), bool(const Controller&), bool().
    template <class T, class F>
    auto To(F&& condition) && {
        using Cond = std::decay_t<F>;
        static_assert(detail::CheckCondition<Cond, Controller, Action>());
        using Old = detail::Chain<Controller, Action, S, Edges...>;
        using New = detail::Chain<Controller, Action, S, Edges..., detail::Edge<T, Cond>>;
        Manager& m = *manager_;
        m.CheckConfigurable([] { return fmt::format("From<{}>().To<{}>()", detail::StateName<S>(), detail::StateName<T>()); });
        const detail::StateIndex to = m.template EnsureState<T>();
        auto& table = *m.table_;
        auto& owned = table.meta[state_].chains[chain_];
        if (owned->type != detail::TypeKey<Old>())
            table.Fail(fmt::format("From<{}>().To<{}>(): this builder was used already; chain each To<...>() on "
                                   "the builder the previous To returned",
                                   detail::StateName<S>(), detail::StateName<T>()));
        Old& old = static_cast<Old&>(*owned);
        std::array<detail::Target, sizeof...(Edges) + 1> targets{};
        for (std::size_t i = 0; i < sizeof...(Edges); ++i) targets[i] = old.target_array[i];
        targets[sizeof...(Edges)] = detail::Target{to, table.meta[to].offset};
        auto fresh = std::make_unique<New>(
            std::tuple_cat(std::move(old.conditions), std::tuple<Cond>(std::forward<F>(condition))), targets);
        owned = std::move(fresh);
        table.Recompile(state_);
        return TransitionBuilder<Controller, Action, S, Edges..., detail::Edge<T, Cond>>(m, state_, chain_);
    }

    /// Adds the transition S -> T taken on the first tick it is tried.
    template <class T>
    auto To() && {
        return std::move(*this).template To<T>(detail::Always{});
    }

    template <class T, class F>
    void To(F&&) & {
        static_assert(detail::kAlwaysFalse<T, F>,
                      "tickfsm: chain To<...>() calls on the builder that From<S>()/SetInitialState<S>() or the "
                      "previous To returned, e.g. From<A>().To<B>(c1).To<C>(c2); a builder kept in a variable cannot "
                      "add transitions (call From<A>() again to append)");
    }
    template <class T>
    void To() & {
        static_assert(detail::kAlwaysFalse<T>,
                      "tickfsm: chain To<...>() calls on the builder that From<S>()/SetInitialState<S>() or the "
                      "previous To returned, e.g. From<A>().To<B>(c1).To<C>(c2); a builder kept in a variable cannot "
                      "add transitions (call From<A>() again to append)");
    }

private:
    using Manager = StateManager<Controller, Action>;
    friend Manager;
    template <class, class, class, class...>
    friend class TransitionBuilder;

    TransitionBuilder(Manager& m, detail::StateIndex state, std::size_t chain) noexcept
        : manager_(&m), state_(state), chain_(chain) {}

    Manager* manager_;
    detail::StateIndex state_;
    std::size_t chain_;
};

/// A finite state machine driving one `Controller` (the character) with one
/// `Action` (the input of a tick). States are small classes with optional hooks
/// `OnStateEnter`, `Perform` and `OnStateExit`, each `(Controller&, const Action&)`.
template <class Controller, class Action>
class StateManager {
public:
    using ControllerType = Controller;
    using ActionType = Action;

    /// Refers to `controller` (does not own it); ticks are `fixed_dt` seconds long.
    explicit StateManager(Controller& controller, float fixed_dt = 1.0f / 60.0f)
        : controller_(&controller), table_(std::make_shared<Table>()) {
        if (!(std::isfinite(fixed_dt) && fixed_dt > 0.0f))
            Table::Fail(fmt::format("fixed_dt must be finite and positive, got {}", fixed_dt));
        table_->dt = fixed_dt;
    }

    // A machine is bound to its controller and its conditions may capture `this`:
    // copying or moving one would leave those pointing at the old object.
    StateManager(const StateManager&) = delete;
    StateManager& operator=(const StateManager&) = delete;

    ~StateManager() { ReleaseData(); }

    /// Declares the state the machine starts in (entered on the first Perform)
    /// and returns the builder of its transitions.
    template <class S>
    TransitionBuilder<Controller, Action, S> SetInitialState() {
        CheckConfigurable([] { return fmt::format("SetInitialState<{}>()", detail::StateName<S>()); });
        if (table_->initial != detail::kNoState)
            Table::Fail(fmt::format("SetInitialState<{}>(): the initial state is already {}; a machine has one "
                                    "initial state (use From<{}>() to add transitions from {})",
                                    detail::StateName<S>(), table_->NameOf(table_->initial), detail::StateName<S>(),
                                    detail::StateName<S>()));
        const detail::StateIndex id = EnsureState<S>();
        auto builder = NewChain<S>(id);
        table_->initial = id;
        return builder;
    }

    /// Returns the builder of transitions from S; several calls for one S append in order.
    template <class S>
    TransitionBuilder<Controller, Action, S> From() {
        CheckConfigurable([] { return fmt::format("From<{}>()", detail::StateName<S>()); });
        return NewChain<S>(EnsureState<S>());
    }

    /// One fixed tick: (first time) enter the initial state; count the tick; try
    /// the current state's transitions in order, firing the first that holds;
    /// then the current state performs.
    void Perform(const Action& action) {
        if (rt_.flags != detail::kStarted) [[unlikely]]
            BeginSlow(action);
        BusyScope busy(rt_);
        const Table& table = *table_;
        table.slots[rt_.state].step(table, *controller_, action, rt_, data_);
    }

    /// Back to the initial state, entered on the next Perform. No hook runs now:
    /// the current state's exit is not called and state objects keep their data.
    void Reset() {
        if (rt_.flags & detail::kBusy)
            Table::Fail(fmt::format("Reset() called from inside a hook or condition of this machine (state {}); "
                                    "reset from outside the tick",
                                    CurrentStateName()));
        rt_ = detail::Runtime{};
    }

    /// True when S is the current state (false before the first Perform).
    template <class S>
    bool IsIn() const noexcept {
        return rt_.state != detail::kNoState && table_->keys[rt_.state] == detail::TypeKey<S>();
    }

    /// This machine's one object of state S (added as a state if not configured yet).
    template <class S>
    S& State() {
        detail::StateIndex id = table_->Find(detail::TypeKey<S>());
        if (id == detail::kNoState) {
            CheckConfigurable([] { return fmt::format("State<{}>() of a state never configured", detail::StateName<S>()); });
            id = EnsureState<S>();
        }
        return detail::StateObject<S>(data_, table_->meta[id].offset);
    }

    /// Seconds in the current state: TicksInState() * fixed_dt, with no drift.
    float TimeInState() const noexcept { return detail::TimeOf(*table_, rt_); }
    /// Ticks counted in the current state (0 on the tick it was entered).
    std::uint32_t TicksInState() const noexcept { return rt_.ticks; }
    /// The current state's `Name`, or its class name; empty before the first Perform.
    std::string_view CurrentStateName() const noexcept { return table_->NameOf(rt_.state); }
    /// The current state's id (not Valid() before the first Perform).
    StateId CurrentState() const noexcept { return StateId{rt_.state}; }
    /// Name of any state of this machine.
    std::string_view StateName(StateId id) const noexcept { return table_->NameOf(id.value); }
    /// Id of S in this machine (not Valid() if S is not one of its states).
    template <class S>
    StateId IdOf() const noexcept {
        return StateId{table_->Find(detail::TypeKey<S>())};
    }
    /// Number of states configured.
    std::size_t StateCount() const noexcept { return table_->meta.size(); }
    /// The fixed tick length in seconds.
    float FixedDeltaTime() const noexcept { return table_->dt; }
    /// False before the first Perform and after Reset.
    bool IsStarted() const noexcept { return (rt_.flags & detail::kStarted) != 0; }

    Controller& GetController() noexcept { return *controller_; }
    const Controller& GetController() const noexcept { return *controller_; }

    /// Dry run: the state the next Perform would move to, or nullopt, without
    /// calling any hook. Before the first Perform it tries the initial state's
    /// transitions as if it had just been entered.
    std::optional<StateId> WouldTransition(const Action& action) const {
        detail::StateIndex from = rt_.state;
        std::uint32_t ticks = rt_.ticks;
        if (!IsStarted()) {
            if (table_->initial == detail::kNoState) return std::nullopt;
            from = table_->initial;
            ticks = 0;
        }
        const float t = static_cast<float>(ticks + 1) * table_->dt;
        const detail::StateIndex to = table_->Probe(from, *controller_, action, t);
        if (to == detail::kNoState) return std::nullopt;
        return StateId{to};
    }

private:
    using Table = detail::Table<Controller, Action>;
    template <class, class, class, class...>
    friend class TransitionBuilder;

    struct BusyScope {
        detail::Runtime& rt;
        explicit BusyScope(detail::Runtime& r) noexcept : rt(r) {
            rt.flags = static_cast<std::uint16_t>(rt.flags | detail::kBusy);
        }
        ~BusyScope() { rt.flags = static_cast<std::uint16_t>(rt.flags & ~detail::kBusy); }
        BusyScope(const BusyScope&) = delete;
        BusyScope& operator=(const BusyScope&) = delete;
    };

    template <class What>
    void CheckConfigurable(What&& what) const {
        if (table_->frozen) [[unlikely]]
            Table::Fail(fmt::format("{}: the transition table is frozen after the first Perform; configure every "
                                    "state and transition before the machine ticks (usually in the constructor)",
                                    what()));
    }

    [[gnu::cold, gnu::noinline]] void BeginSlow(const Action& action) {
        if (rt_.flags & detail::kBusy)
            Table::Fail(fmt::format("Perform() called from inside a hook or condition of this machine (state {}); "
                                    "a tick cannot start inside another tick",
                                    CurrentStateName()));
        if (table_->initial == detail::kNoState)
            Table::Fail("Perform() called before SetInitialState<S>(): give the machine an initial state while "
                        "configuring");
        table_->frozen = true;
        rt_.state = table_->initial;
        rt_.ticks = 0;
        rt_.flags = detail::kStarted;
        BusyScope busy(rt_);
        const auto& meta = table_->meta[rt_.state];
        meta.enter(*controller_, action, data_, meta.offset);
    }

    template <class S>
    TransitionBuilder<Controller, Action, S> NewChain(detail::StateIndex id) {
        auto& chains = table_->meta[id].chains;
        chains.push_back(std::make_unique<detail::Chain<Controller, Action, S>>(std::tuple<>{}, std::array<detail::Target, 0>{}));
        return TransitionBuilder<Controller, Action, S>(*this, id, chains.size() - 1);
    }

    template <class S>
    detail::StateIndex EnsureState() {
        const std::size_t before = table_->meta.size();
        const detail::StateIndex id = table_->template Register<S>();
        if (table_->meta.size() != before && table_->meta[id].has_data) GrowData(id);
        return id;
    }

    static std::byte* AllocateData(std::size_t size, std::size_t align) {
        return static_cast<std::byte*>(::operator new(size, std::align_val_t{align}));
    }
    static void FreeData(std::byte* p, std::size_t align) noexcept {
        ::operator delete(p, std::align_val_t{align});
    }

    /// State `added` has data: move every data state into a block big enough for it too.
    void GrowData(detail::StateIndex added) {
        struct Undo { // a constructor that throws leaves the table as it was
            Table* table;
            std::byte* block;
            std::size_t align;
            ~Undo() {
                if (table) table->PopLast();
                if (block) FreeData(block, align);
            }
        } undo{table_.get(), nullptr, table_->data_align};
        undo.block = AllocateData(table_->data_size, table_->data_align);
        const auto& meta = table_->meta;
        meta[added].construct(undo.block + meta[added].offset);
        for (std::size_t i = 0; i < meta.size(); ++i)
            if (meta[i].has_data && i != added) meta[i].relocate(undo.block + meta[i].offset, data_ + meta[i].offset);
        if (data_) FreeData(data_, data_align_);
        data_ = undo.block;
        data_align_ = table_->data_align;
        undo.table = nullptr;
        undo.block = nullptr;
    }

    void ReleaseData() noexcept {
        if (!data_) return;
        for (const auto& m : table_->meta)
            if (m.has_data) m.destroy(data_ + m.offset);
        FreeData(data_, data_align_);
        data_ = nullptr;
    }

    Controller* controller_;
    std::shared_ptr<Table> table_;
    std::byte* data_ = nullptr;
    detail::Runtime rt_{};
    std::uint32_t data_align_ = 1;
};

} // namespace tickfsm
