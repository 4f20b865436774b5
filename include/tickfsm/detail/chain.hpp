#pragma once
// A state's transitions as compiled code: a Chain per `From<S>()` chain, whose
// step inlines its conditions and the hooks of every state it can reach (the
// fast path), and whose probe the general path calls; ErasedChain for keyed
// machines, whose conditions are known only at run time.

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "owned.hpp"
#include "../list.hpp"
#include "format.hpp"
#include "runtime.hpp"
#include "traits.hpp"
#include "tree.hpp"
#include "type_key.hpp"
#include "type_name.hpp"

namespace tickfsm::detail {

template <class C, class A>
struct ChainBase;

template <class C, class A>
struct NestedStepper;
inline constexpr std::uint32_t kLeafTicks = 0xFFFFFFFF;

/// One step of a row of jumps: `level` does its part, then jumps to the next
/// link's (or, for a list of transitions whose condition holds, to `fire`).
/// A leaf on the nested fast path ticks as such a row (NestedStepper): one
/// link per list of transitions on its active path, outermost first (each
/// tries its conditions with its state's time), then one per Perform on the
/// path, outermost first, the last of which returns (a path without a
/// Perform ends with a link that only returns). The general path asks a
/// list for its first condition that holds through a row of two (Table::Probe).
template <class C, class A>
struct NestedLink {
    using LevelFn = void (*)(C& c, const A& a, Runtime& rt, std::byte* data, const NestedLink* link);
    using FireFn = void (*)(C& c, const A& a, Runtime& rt, std::byte* data, const NestedLink* link, int index);
    LevelFn level = nullptr;
    FireFn fire = nullptr;                     // a list: where it goes when condition `index` holds
    const ChainBase<C, A>* chain = nullptr;    // a list: the state's transitions
    const NestedStepper<C, A>* self = nullptr; // a list on the nested fast path: the leaf's stepper
    int* found = nullptr;                      // a list on the general path: where the condition found is written
    std::uint32_t slot = 0;                    // a list: where the state's ticks are (a CompositeSlot, or kLeafTicks)
    std::uint32_t start = 0;                   // a list: the first condition it tries
    std::uint32_t number = 0;                  // a list on the nested fast path: its place in NestedStepper::chains
    std::uint32_t offset = 0;                  // a Perform: the state's object
    float dt = 0;                              // a list: the table's
};

/// One `From<S>()` chain: its conditions in order. Owned by the table.
template <class C, class A>
struct ChainBase : Stepper<C, A> {
    using ProbeFn = typename NestedLink<C, A>::LevelFn;
    using PrepareFn = void (*)(const ChainBase&, int index, const C&, const A&, std::byte* data);
    ProbeFn probe = nullptr;         // as a NestedLink's level: tries the conditions from the link's `start`
    PrepareFn prepare = nullptr;     // builds the target of transition `index` if it takes arguments
    // Stepper::step: the state's whole tick when this is its only chain (null if
    // the chain's conditions are only known at run time).
    Target* targets = nullptr;       // one per condition
    const std::uint8_t* forced = nullptr; // one per condition: 1 if the transition skips the gates
    const std::uint8_t* kinds = nullptr;  // one per condition (kKindPush, ...); null if all are plain changes
    std::size_t count = 0;
    const void* type = nullptr;      // TypeKey of the concrete chain, to catch reused builders
    // A copy of the state's offset, set by Table::Finalize, so that Step reads only its chain.
    std::uint32_t offset = 0;
    // Destroys the concrete chain: a pointer rather than a virtual destructor,
    // so that a chain type brings no vtable or type information per prefix.
    void (*destroy)(ChainBase*) noexcept = nullptr;
};

/// Owns a chain of any concrete type (see ChainBase::destroy).
struct ChainDelete {
    template <class Chain>
    void operator()(Chain* chain) const noexcept {
        chain->destroy(chain);
    }
};
template <class C, class A>
using ChainPtr = detail::Owned<ChainBase<C, A>, ChainDelete>;

/// A transition taken when an event is sent.
/// The pseudo-state that holds the any-state transitions (FromAny()): never
/// entered, its transitions are tried before the active path's.
struct Any {
    static constexpr std::string_view Name = "FromAny()"; // a name no class can have
};

/// No arguments for the entered state: it is entered as it is.
struct NoMaker {};

/// What a transition does besides changing state, as Edge flags (bits) and
/// as ChainBase::kinds (values).
inline constexpr unsigned kEdgeForced = 1; // skips the gates
inline constexpr unsigned kEdgePush = 2;   // buries the current state under its target
inline constexpr unsigned kEdgePop = 4;    // leaves for the state buried last
inline constexpr unsigned kEdgeWait = 8;   // waits until the current state is done (ToWhenDone)
inline constexpr std::uint8_t kKindChange = 0, kKindPush = 1, kKindPop = 2, kKindWait = 4;

template <class T, class F, unsigned kEdgeFlags = 0, class M = NoMaker>
struct Edge {
    using To = T;
    using Condition = F;
    using Maker = M; // builds a fresh T from (controller, action) before T is entered
    static constexpr bool kForced = (kEdgeFlags & kEdgeForced) != 0;
    static constexpr std::uint8_t kKind = static_cast<std::uint8_t>(kEdgeFlags >> 1);
};

/// A state entered with arguments: a fresh object built in place.
template <class T, class... Args>
void RebuildState(std::byte* at, Args&&... args) {
    static_assert(!std::is_empty_v<T>, "tickfsm: a state entered with arguments must hold data to receive them");
    static_assert(std::is_constructible_v<T, Args...>,
                  "tickfsm: entering a state with arguments builds a fresh state object from them: give the state a "
                  "constructor taking these arguments");
    T fresh(std::forward<Args>(args)...); // if this throws, the old object is untouched
    std::launder(reinterpret_cast<T*>(at))->~T();
    ::new (static_cast<void*>(at)) T(std::move(fresh));
}



/// The ticks of the state a NestedLink tries: the leaf's, or a composite's,
/// which follow the leaf's (Table::composite_bases).
[[gnu::always_inline]] inline std::uint32_t LinkTicks(std::uint32_t slot, const Runtime& rt,
                                                      const std::byte* data) noexcept {
    return slot == kLeafTicks ? rt.ticks : SumTicks(reinterpret_cast<const CompositeSlot*>(data + slot)->ticks, rt.ticks);
}

/// A state's OnStateEnter or OnStateExit without the machine handle, as a
/// planned change of the nested fast path calls it (NestedMoveStep).
template <class C, class A>
using PlainHookFn = void (*)(C& c, const A& a, std::byte* data, std::uint32_t offset);
template <class C, class A, class S>
void PlainEnter(AnyController& c, const AnyAction& a, std::byte* data, std::uint32_t offset) {
    CallEnter(StateObject<S>(data, offset), Real<C>(c), Real<A>(a));
}
template <class C, class A, class S>
void PlainExit(AnyController& c, const AnyAction& a, std::byte* data, std::uint32_t offset) {
    CallExit(StateObject<S>(data, offset), Real<C>(c), Real<A>(a));
}

/// S's Perform as a NestedLink's level (see there).
template <class C, class A, class S>
void PerformLevel(AnyController& c, const AnyAction& a, Runtime& rt, std::byte* data,
                  const NestedLink<AnyController, AnyAction>* link) {
    CallPerform(StateObject<S>(data, link->offset), Real<C>(c), Real<A>(a));
    return link[1].level(c, a, rt, data, link + 1);
}
/// S's Perform as the last link of a row: the tick ends with it.
template <class C, class A, class S>
void PerformLast(AnyController& c, const AnyAction& a, Runtime&, std::byte* data,
                 const NestedLink<AnyController, AnyAction>* link) {
    CallPerform(StateObject<S>(data, link->offset), Real<C>(c), Real<A>(a));
}


/// A state key as errors show it: "CreatureState::Attack1", "CreatureState(300)", "7".
template <class K>
Text KeyText(K key) {
    if constexpr (std::is_enum_v<K>) {
        const std::string_view name = EnumName(key);
        if (!name.empty()) return detail::MessageText(detail::Message::KeyEnumName, TypeName<K>(), name);
        // The value in the underlying type's signedness: an unsigned 64-bit key past INT64_MAX is not negative.
        using Value = std::conditional_t<std::is_unsigned_v<std::underlying_type_t<K>>, unsigned long long, long long>;
        return detail::MessageText(detail::Message::KeyEnumValue, TypeName<K>(), static_cast<Value>(key));
    } else {
        return detail::MessageText(detail::Message::KeyValue, key);
    }
}


/// Tests only: a StateManager's table (see FusedLeafCount). Each
/// StateManager befriends it.
struct TableAccess {
    template <class M>
    static const auto& Of(const M& machine) {
        return machine.ResolvedTable();
    }
};

/// A state with no transitions: count the tick and perform.
template <class C, class A, class S>
void StepNone(const ErasedWord* steps, AnyController& any_c, const AnyAction& any_a, Runtime& rt,
              std::byte* data) {
    C& c = Real<C>(any_c);
    const A& a = Real<A>(any_a);
    const StateIndex state = rt.state;
    CountTickInPlace(rt.ticks);
    if constexpr (kStateless<S>) {
        (void)steps;
        (void)state;
        CallPerform(StateObject<S>(data, 0), c, a);
    } else {
        CallPerform(StateObject<S>(data, SelfOf<NoneStepper<AnyController, AnyAction>>(steps, state).offset), c, a);
    }
}
/// StepNone of a state without data, in a table without data.
template <class C, class A, class S>
void StepNoneBare(const ErasedWord*, AnyController& c, const AnyAction& a, Runtime& rt) {
    CountTickInPlace(rt.ticks);
    CallPerform(StateObject<S>(nullptr, 0), Real<C>(c), Real<A>(a));
}
/// StepNone for a StateManager (see Seat).
template <class C, class A, class S>
void StepNoneMachine(AnyController& c, const AnyAction& a, Runtime& rt) {
    if constexpr (kStateless<S>) StepNoneBare<C, A, S>(nullptr, c, a, rt);
    else StepNone<C, A, S>(SeatedSteps<AnyController, AnyAction>(rt), c, a, rt, SeatedData(rt));
}

/// The per-character data a step received: `data...` is the pointer, or
/// nothing in a step that reads none (a bare step, or a chain that touches no
/// state with data).
template <class... Data>
[[gnu::always_inline]] inline std::byte* DataOf(Data... data) noexcept {
    if constexpr (sizeof...(Data) == 0) return nullptr;
    else return (data, ...);
}

/// `rt` enters `to`: its id, no ticks yet, its flags raised. Where Runtime and
/// Target are laid out as {state, flags, ticks} and {id, flags} in a
/// little-endian word, that is a read of rt's first half and one write of the
/// whole, with no test of the flags. Only the half without the ticks is read: the step has just
/// written the ticks, and a wider read would wait for that write to land.
[[gnu::always_inline]] inline void EnterTarget(Runtime& rt, const Target& to) noexcept {
    if constexpr (std::endian::native == std::endian::little && sizeof(Runtime) == 8 &&
                  offsetof(Runtime, flags) == 2 && offsetof(Runtime, ticks) == 4 && offsetof(Target, flags) == 2) {
        struct Head {
            std::uint16_t id, flags;
        };
        const auto now = std::bit_cast<std::uint32_t>(Head{rt.state, rt.flags});
        const auto next = std::bit_cast<std::uint32_t>(Head{to.id, to.flags});
        rt = std::bit_cast<Runtime>(static_cast<std::uint64_t>((now & 0xFFFF0000u) | next)); // ticks 0
    } else {
        rt.state = to.id;
        rt.ticks = 0;
        rt.flags = static_cast<std::uint16_t>(rt.flags | to.flags);
    }
}

/// EnterTarget for a StateManager's fast step, during which its flags are
/// kMachineFast | kBusy (a hook cannot change them: every call that would is
/// refused while kBusy is set): the word is written without reading it, and
/// the Seat's step follows the state (MachineGeneralStep for a state on the
/// general path, in place of the target's kSlow).
[[gnu::always_inline]] inline void EnterMachineTarget(Runtime& rt, const Target& to, const ErasedWord* steps) noexcept {
    rt = Runtime{to.id, static_cast<std::uint16_t>(kMachineFast | kBusy), 0};
    SeatOf(rt).step = reinterpret_cast<void (*)()>(steps[to.id].machine);
}

/// Leave S for T: S's exit, the switch (T rebuilt by the maker, if any), T's
/// enter, then T performs this tick.
template <class C, class A, class S, class T, bool kMachine, class Maker>
[[gnu::always_inline]] inline void Fire(C& c, const A& a, Runtime& rt, std::byte* data, std::uint32_t from_offset,
                                        const Target& to, const Maker& make,
                                        [[maybe_unused]] const ErasedWord* steps) {
    CallExit(StateObject<S>(data, from_offset), c, a);
    if constexpr (!std::is_same_v<Maker, NoMaker>) RebuildState<T>(data + to.offset, make(std::as_const(c), a));
    if constexpr (kMachine) EnterMachineTarget(rt, to, steps);
    else EnterTarget(rt, to);
    T& next = StateObject<T>(data, to.offset);
    CallEnter(next, c, a);
    CallPerform(next, c, a);
}

/// Transition I of a chain of S, to T without a maker, fires (see Chain::FireAt).
template <class C, class A, class S, class T, std::size_t I, class... Data>
[[TICKFSM_DETAIL_OUT_OF_LINE]] void FireEdge(const ErasedWord* steps, C& c, const A& a, Runtime& rt,
                                             Data... data) {
    const auto& self = SelfOf<ChainBase<AnyController, AnyAction>>(steps, rt.state);
    Fire<C, A, S, T, false>(c, a, rt, DataOf(data...), kStateless<S> ? 0u : self.offset, self.targets[I],
                            NoMaker{}, steps);
}
/// FireEdge for a StateManager's step (see Chain::FireAtMachine).
template <class C, class A, class S, class T, std::size_t I>
[[TICKFSM_DETAIL_OUT_OF_LINE]] void FireEdgeMachine(C& c, const A& a, Runtime& rt) {
    const ErasedWord* steps = SeatedSteps<AnyController, AnyAction>(rt);
    const auto& self = SelfOf<ChainBase<AnyController, AnyAction>>(steps, rt.state);
    std::byte* data = nullptr;
    if constexpr (!kStateless<S> || !kStateless<T>) data = SeatedData(rt);
    Fire<C, A, S, T, true>(c, a, rt, data, kStateless<S> ? 0u : self.offset, self.targets[I], NoMaker{}, steps);
}

/// Transition I of a chain: its condition, and the maker of its target (if
/// any). Its type depends only on I and the edge, so every prefix of a chain
/// shares it: building a chain one To at a time instantiates little per step.
template <std::size_t I, class E>
struct EdgeHolder {
    [[no_unique_address]] typename E::Condition condition;
    [[no_unique_address]] typename E::Maker maker;
};

template <class Indices, class... Edges>
struct EdgeStore;
/// A chain's transitions: one EdgeHolder base per edge (empty conditions cost nothing).
template <std::size_t... I, class... Edges>
struct EdgeStore<std::index_sequence<I...>, Edges...> : EdgeHolder<I, Edges>... {};

template <class C, class A, class S, class... Edges>
struct Chain final : ChainBase<AnyController, AnyAction> {
    static constexpr std::size_t kCount = sizeof...(Edges);
    using Store = EdgeStore<std::index_sequence_for<Edges...>, Edges...>;

    Store edges;
    std::array<Target, kCount> target_array;
    static constexpr std::array<std::uint8_t, kCount> kForced{std::uint8_t{Edges::kForced}...};
    static constexpr std::array<std::uint8_t, kCount> kKinds{Edges::kKind...};
    /// Whether a tick of S can touch per-character data: S's, a target's, or a target's maker.
    static constexpr bool kReadsData = !kStateless<S> || (... || !kStateless<typename Edges::To>) ||
                                       (... || !std::is_same_v<typename Edges::Maker, NoMaker>);

    /// The chain of `store`'s conditions to the targets `previous` (one fewer) then `last`.
    Chain(Store&& store, const Target* previous, Target last) : edges(std::move(store)) {
        if constexpr (kCount > 0) {
            for (std::size_t i = 0; i + 1 < kCount; ++i) target_array[i] = previous[i];
            target_array[kCount - 1] = last;
        } else {
            (void)previous;
            (void)last;
        }
        this->probe = &Probe;
        // Only a chain whose transitions build their target needs the general path's rebuild.
        if constexpr ((... || !std::is_same_v<typename Edges::Maker, NoMaker>)) this->prepare = &PrepareEdge;
        // A state whose chains are all empty ticks with its StepNone: an empty
        // chain's steps would never run.
        if constexpr (kCount > 0) {
            this->step = &Step;
            if constexpr (!kReadsData) this->bare = &StepBare;
            this->machine = &StepMachine;
        }
        this->targets = target_array.data();
        this->forced = kForced.data();
        if constexpr ((... || (Edges::kKind != kKindChange))) this->kinds = kKinds.data();
        this->count = kCount;
        this->type = TypeKey<Chain>();
        this->destroy = [](ChainBase<AnyController, AnyAction>* chain) noexcept { delete static_cast<Chain*>(chain); };
    }

    template <std::size_t... I>
    [[gnu::always_inline]] int ProbeAll([[maybe_unused]] const C& c, [[maybe_unused]] const A& a,
                                        [[maybe_unused]] float t, [[maybe_unused]] int start,
                                        std::index_sequence<I...>) const {
        int fired = -1;
        (void)(((static_cast<int>(I) >= start &&
                 CallCondition(static_cast<const EdgeHolder<I, Edges>&>(edges).condition, c, a, t))
                    ? (fired = static_cast<int>(I), true)
                    : false) ||
               ...);
        return fired;
    }

    /// This list as a NestedLink's level (see there): its conditions inlined,
    /// from the link's `start`, with its state's time. Compiled for size, as
    /// it was when only the general path called it: every list a builder
    /// makes on the way to the last compiles one.
    [[gnu::cold]] static void Probe(AnyController& c, const AnyAction& a, Runtime& rt, std::byte* data,
                                    const NestedLink<AnyController, AnyAction>* link) {
        const float t = TimeOf(LinkTicks(link->slot, rt, data), link->dt);
        const int fired = static_cast<const Chain&>(*link->chain)
                              .ProbeAll(Real<C>(std::as_const(c)), Real<A>(a), t, static_cast<int>(link->start),
                                        std::index_sequence_for<Edges...>{});
        if (fired >= 0) return link->fire(c, a, rt, data, link, fired);
        return link[1].level(c, a, rt, data, link + 1);
    }

    /// The general path's version of Fire's rebuild: edge `index` builds its target.
    [[TICKFSM_DETAIL_COLD]] static void PrepareEdge(const ChainBase<AnyController, AnyAction>& base, int index,
                                                    const AnyController& c, const AnyAction& a, std::byte* data) {
        const Chain& self = static_cast<const Chain&>(base);
        self.PrepareAt(index, Real<C>(c), Real<A>(a), data, std::index_sequence_for<Edges...>{});
    }
    template <std::size_t... I>
    void PrepareAt([[maybe_unused]] int index, [[maybe_unused]] const C& c, [[maybe_unused]] const A& a,
                   [[maybe_unused]] std::byte* data, std::index_sequence<I...>) const {
        (..., (static_cast<int>(I) == index
                   ? PrepareOne<typename Edges::To>(static_cast<const EdgeHolder<I, Edges>&>(edges).maker, c, a,
                                                    data + target_array[I].offset)
                   : void()));
    }
    template <class T, class Maker>
    static void PrepareOne([[maybe_unused]] const Maker& make, [[maybe_unused]] const C& c,
                           [[maybe_unused]] const A& a, [[maybe_unused]] std::byte* at) {
        if constexpr (!std::is_same_v<Maker, NoMaker>) RebuildState<T>(at, make(c, a));
    }

    /// This chain, in the table whose steps a tick received, for the step of `state`.
    [[gnu::always_inline]] static const Chain& Of(const ErasedWord* steps, StateIndex state) noexcept {
        return static_cast<const Chain&>(SelfOf<ChainBase<AnyController, AnyAction>>(steps, state));
    }

    /// Condition I, read from the chain only if it holds data: an empty one
    /// (a captureless lambda) costs no load.
    template <std::size_t I>
    [[gnu::always_inline]] static const auto& ConditionAt(const ErasedWord* steps, StateIndex state) noexcept {
        using Holder = EdgeHolder<I, PackAt<I, Edges...>>;
        using Condition = decltype(Holder::condition);
        if constexpr (std::is_empty_v<Condition> && std::is_trivially_default_constructible_v<Condition>) {
            (void)steps;
            (void)state;
            return kEmptyState<Condition>;
        } else {
            return static_cast<const Holder&>(Of(steps, state).edges).condition;
        }
    }

    template <bool kMachine, std::size_t... I, class... Data>
    [[gnu::always_inline]] static bool FireFirst([[maybe_unused]] const ErasedWord* steps,
                                                 [[maybe_unused]] C& c, [[maybe_unused]] const A& a,
                                                 [[maybe_unused]] float t, [[maybe_unused]] Runtime& rt,
                                                 std::index_sequence<I...>, [[maybe_unused]] Data... data) {
        return ((CallCondition(ConditionAt<I>(steps, rt.state), c, a, t) &&
                 (FireOne<I, kMachine>(steps, c, a, rt, data...), true)) ||
                ...);
    }

    /// Transition I fires: out of the step, so that the step's common path
    /// (no transition) reads nothing of the chain and keeps its registers;
    /// it is the step's last call, a jump.
    /// It takes the data pointer only if the chain reads data (`Data...`).
    template <std::size_t I, class... Data>
    [[TICKFSM_DETAIL_OUT_OF_LINE]] static void FireAt(const ErasedWord* steps, C& c, const A& a, Runtime& rt,
                                                      Data... data) {
        using E = PackAt<I, Edges...>;
        const Chain& self = Of(steps, rt.state);
        Fire<C, A, S, typename E::To, false>(c, a, rt, DataOf(data...), OffsetOf(steps, rt.state),
                                             self.target_array[I],
                                             static_cast<const EdgeHolder<I, E>&>(self.edges).maker, steps);
    }
    /// FireAt for a StateManager's step: its arguments are the step's, so the
    /// jump to it moves no register; it finds the steps and data through the Seat.
    template <std::size_t I>
    [[TICKFSM_DETAIL_OUT_OF_LINE]] static void FireAtMachine(C& c, const A& a, Runtime& rt) {
        using E = PackAt<I, Edges...>;
        const ErasedWord* steps = SeatedSteps<AnyController, AnyAction>(rt);
        const Chain& self = Of(steps, rt.state);
        std::byte* data = nullptr;
        if constexpr (kReadsData) data = SeatedData(rt);
        Fire<C, A, S, typename E::To, true>(c, a, rt, data, OffsetOf(steps, rt.state), self.target_array[I],
                                            static_cast<const EdgeHolder<I, E>&>(self.edges).maker, steps);
    }
    template <std::size_t I, bool kMachine, class... Data>
    [[gnu::always_inline]] static void FireOne(const ErasedWord* steps, C& c, const A& a, Runtime& rt,
                                               Data... data) {
        using E = PackAt<I, Edges...>;
        if constexpr (std::is_same_v<typename E::Maker, NoMaker>) {
            // Only the chain's base is read: every chain of S that has this
            // target at I (each prefix a builder made) shares the function.
            if constexpr (kMachine) FireEdgeMachine<C, A, S, typename E::To, I>(c, a, rt);
            else FireEdge<C, A, S, typename E::To, I, Data...>(steps, c, a, rt, data...);
        } else {
            if constexpr (kMachine) FireAtMachine<I>(c, a, rt);
            else FireAt<I, Data...>(steps, c, a, rt, data...);
        }
    }

    /// Where S's object lives in a character's data (0 if S has none: no load).
    [[gnu::always_inline]] static std::uint32_t OffsetOf(const ErasedWord* steps, StateIndex state) noexcept {
        if constexpr (kStateless<S>) {
            (void)steps;
            (void)state;
            return 0;
        } else {
            return Of(steps, state).offset;
        }
    }

    /// The whole tick of S, its conditions and every reachable hook inlined;
    /// `data...` is the per-character data pointer if the chain reads data.
    template <bool kMachine = false, class... Data>
    [[gnu::always_inline]] static void Tick(const ErasedWord* steps, C& c, const A& a, Runtime& rt,
                                            Data... data) {
        const std::uint32_t ticks = CountTickInPlace(rt.ticks);
        if (!FireFirst<kMachine>(steps, c, a, TimeOf(ticks, steps[kDtWord].dt), rt, std::index_sequence_for<Edges...>{},
                       data...))
            CallPerform(StateObject<S>(DataOf(data...), OffsetOf(steps, rt.state)), c, a);
    }
    /// The step in a table with per-character data. A chain that reads none
    /// jumps to its bare step rather than compiling the same tick twice.
    static void Step(const ErasedWord* steps, AnyController& c, const AnyAction& a, Runtime& rt,
                     [[maybe_unused]] std::byte* data) {
        if constexpr (kReadsData) Tick(steps, Real<C>(c), Real<A>(a), rt, data);
        else StepBare(steps, c, a, rt);
    }
    /// The step in a table without (Table::bare); called through a pointer
    /// only, so never inlined.
    [[gnu::noinline]] static void StepBare(const ErasedWord* steps, AnyController& c, const AnyAction& a,
                                           Runtime& rt) {
        Tick(steps, Real<C>(c), Real<A>(a), rt);
    }
    /// A StateManager's step (see Seat): a transition also sets the Seat's step.
    static void StepMachine(AnyController& c, const AnyAction& a, Runtime& rt) {
        const ErasedWord* steps = SeatedSteps<AnyController, AnyAction>(rt);
        if constexpr (kReadsData) Tick<true>(steps, Real<C>(c), Real<A>(a), rt, SeatedData(rt));
        else Tick<true>(steps, Real<C>(c), Real<A>(a), rt);
    }
};

/// Appends a transition's target and whether it skips the gates (ErasedChain::Add's
/// untyped part, compiled in lib/engine.cpp).
void AppendTarget(List<Target>& targets, List<std::uint8_t>& forced, Target to, bool skip_gates);

/// A chain whose conditions are only known at run time (a keyed machine's):
/// tried on the general path through one call per condition.
template <class C, class A>
struct ErasedChain final : ChainBase<AnyController, AnyAction> {
    struct Condition {
        bool (*call)(const void* condition, const C&, const A&, float) = nullptr;
        detail::Shared<const void> condition;
    };
    List<Condition> conditions;
    List<Target> target_list;
    List<std::uint8_t> forced_list;

    ErasedChain() {
        this->probe = &Probe;
        this->type = TypeKey<ErasedChain>();
        this->destroy = [](ChainBase<AnyController, AnyAction>* chain) noexcept {
            delete static_cast<ErasedChain*>(chain);
        };
    }

    template <class F>
    void Add(F&& condition, Target to, bool skip_gates) {
        using Cond = std::decay_t<F>;
        conditions.push_back(Condition{[](const void* f, const C& c, const A& a, float t) {
                                           return CallCondition(*static_cast<const Cond*>(f), c, a, t);
                                       },
                                       detail::MakeShared<const Cond>(std::forward<F>(condition))});
        AppendTarget(target_list, forced_list, to, skip_gates);
        this->targets = target_list.data();
        this->forced = forced_list.data();
        this->count = conditions.size();
    }

    /// Probe through one call per condition (see Chain::Probe).
    static void Probe(AnyController& c, const AnyAction& a, Runtime& rt, std::byte* data,
                      const NestedLink<AnyController, AnyAction>* link) {
        const auto& self = static_cast<const ErasedChain&>(*link->chain);
        const float t = TimeOf(LinkTicks(link->slot, rt, data), link->dt);
        for (std::size_t i = link->start; i < self.conditions.size(); ++i)
            if (self.conditions[i].call(self.conditions[i].condition.get(), Real<C>(std::as_const(c)), Real<A>(a), t))
                return link->fire(c, a, rt, data, link, static_cast<int>(i));
        return link[1].level(c, a, rt, data, link + 1);
    }
};

/// Where a transition goes, and which of the state's conditions (in declaration
/// order across its chains) sent it there.
template <class C, class A>
struct Probed {
    StateIndex to = kNoState;
    std::size_t condition = 0;
    const ChainBase<C, A>* chain = nullptr; // where it was found, for a transition that builds its target
    int index = -1;
    StateIndex owner = kNoState; // the state whose transitions held it (ProbePath), or the Any pseudo-state
};

} // namespace tickfsm::detail
