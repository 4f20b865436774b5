#pragma once
// The compiled transition table: contiguous steps indexed by small state ids,
// one step function per state that inlines that state's conditions and the
// hooks of every state it can reach. Built while configuring, immutable once a
// machine runs, and shareable by every character of one type.
//
// Two tick paths read it. The fast path is one indirect call to a state's step
// function; it serves states whose hooks need nothing but the controller and
// the action. Everything else (hooks that take the machine handle, action
// lists, events sent from hooks, NextState requests, an attached observer)
// runs on the general path of detail/tick.hpp, which a flag in the character's
// Runtime selects, so a machine that uses none of it never pays for it.

#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "format.hpp"

#include "../config_error.hpp"
#include "../describe.hpp"
#include "../event.hpp"
#include "../observer.hpp"
#include "../state_ref.hpp"
#include "traits.hpp"
#include "tree.hpp"
#include "type_key.hpp"
#include "type_name.hpp"

// A function out of line whose calling convention stays the standard one:
// g++ may otherwise give a local copy its own (dropping unused parameters),
// and a caller that jumps to it must then shuffle its registers first.
#if defined(__GNUC__) && !defined(__clang__)
#define TICKFSM_DETAIL_OUT_OF_LINE gnu::noipa
#else
#define TICKFSM_DETAIL_OUT_OF_LINE gnu::noinline
#endif

// What runs while configuring, on a mistake or on the general path: kept out
// of its callers and compiled for size, so that a machine's constructor stays
// a list of calls and each character type costs the compiler little.
#define TICKFSM_DETAIL_COLD gnu::cold, gnu::noinline

namespace tickfsm::detail {

/// Tells the optimizer that `condition` holds, where the caller has made sure
/// of it: it may then drop the code for the other case.
[[gnu::always_inline]] inline void Assume([[maybe_unused]] bool condition) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    if (!condition) __builtin_unreachable();
#elif defined(_MSC_VER)
    __assume(condition);
#endif
}

using StateIndex = std::uint16_t;
inline constexpr StateIndex kNoState = 0xFFFF;

/// A crowd's TickAll gate (fast_count_) while its common case does not hold:
/// no span has this many controllers.
inline constexpr std::size_t kNoFastCount = static_cast<std::size_t>(-1);

/// How a loop out of the caller's line holds the caller's callable F: a copy
/// when a copy behaves as F itself (trivially copyable, at most two pointers,
/// callable as const), so that what F captured stays in registers across the
/// opaque calls in the loop instead of being read again through the reference
/// after each one; the reference otherwise.
template <class F, class... Args>
using HeldCallable = std::conditional_t<std::is_trivially_copyable_v<F> && sizeof(F) <= 2 * sizeof(void*) &&
                                            std::is_invocable_v<const F&, Args...>,
                                        const F, F&>;

/// Room for one more element, growing geometrically: reserving size() + 1
/// each time made adding n states take n^2 / 2 copies.
template <class V>
void ReserveOneMore(V& v) {
    if (v.size() == v.capacity()) v.reserve(v.size() < 8 ? 8 : 2 * v.size());
}

/// Per character: this is all a running machine changes on a tick.
struct Runtime {
    StateIndex state = kNoState;
    std::uint16_t flags = 0;
    std::uint32_t ticks = 0;
};
// A StateManager's fast path tests, reads and writes the low byte alone (see
// StateManager::Perform); every flag that sends a tick to the general path
// sits above it, and a StateManager sends such ticks there through its Seat's
// step instead (see Seat).
inline constexpr std::uint16_t kStarted = 1;        // the initial state was entered
inline constexpr std::uint16_t kBusy = 2;           // inside a hook or condition
inline constexpr std::uint16_t kFrozen = 4;         // configuration is closed (StateManager)
inline constexpr std::uint16_t kFresh = 8;          // a StateManager's Seat::step is up to date
inline constexpr std::uint16_t kSlow = 0x100;       // the current state runs on the general path
inline constexpr std::uint16_t kNextPending = 0x200; // a NextState request waits for the next tick
inline constexpr std::uint16_t kObserved = 0x400;   // an observer is attached
inline constexpr std::uint16_t kInitialized = 0x800; // OnStateInit ran (kept across Reset)
inline constexpr std::uint16_t kGlobal = 0x1000;    // a global state performs every tick
inline constexpr std::uint16_t kGlobalWaiting = 0x2000; // the global state is entered when the machine starts
inline constexpr std::uint16_t kDone = 0x4000;      // the current state called Machine::Done() since it was entered
/// What sends a started StateManager's ticks to the general path.
inline constexpr std::uint16_t kGeneralReasons = kSlow | kNextPending | kObserved | kGlobal;
/// A StateManager's flags when its next tick calls its Seat's step: a change
/// of state on the general path clears kFresh (ChangeTo), and the next tick
/// finds the step again.
inline constexpr std::uint16_t kMachineFast = kStarted | kFrozen | kInitialized | kFresh;

/// Gives `place` a value for a scope and puts back the one it had, even if a
/// hook throws: how a crowd's fast tick marks what runs (its running_) with a
/// plain store on each side, rather than a read-modify-write of the flags the
/// step also writes (which would wait for the step's own store).
template <class T>
struct ScopedValue {
    T& place;
    T previous;
    ScopedValue(T& p, T now) noexcept : place(p), previous(p) { place = now; }
    ~ScopedValue() { place = previous; }
    ScopedValue(const ScopedValue&) = delete;
    ScopedValue& operator=(const ScopedValue&) = delete;
};

/// A transition's destination: its id, where its data lives in a character's
/// block, and the flags to raise on entering it (kSlow for a state whose own
/// step is on the general path).
struct Target {
    StateIndex id;
    std::uint16_t flags;
    std::uint32_t offset;
};


/// One request held by an input buffer: the wanted state and the ticks it may still wait.
struct BufferedRequest {
    StateIndex state = kNoState;
    std::uint32_t ticks_left = 0;
};

/// States without data are never instantiated per character: one object serves all.
template <class S>
inline S kEmptyState{};

template <class S>
[[gnu::always_inline]] inline S& StateObject(std::byte* data, std::uint32_t offset) noexcept {
    if constexpr (std::is_empty_v<S>) {
        (void)data;
        (void)offset;
        return kEmptyState<S>;
    } else {
        return *std::launder(reinterpret_cast<S*>(data + offset));
    }
}

template <class C, class A>
struct Table;
template <class C, class A>
struct TickContext;

template <class C, class A>
struct Stepper;

template <class C, class A>
union StepWord;

/// A state's whole tick on the fast path. It receives the table's steps (see
/// StepWord), so that the caller makes one call through one load and passes
/// nothing it must look up: what the step needs beyond the controller, the
/// action and the character's Runtime and data, it finds from `steps`.
template <class C, class A>
using StepFn = void (*)(const StepWord<C, A>* steps, C&, const A&, Runtime&, std::byte*);
/// The step of a table without per-character data: the same, minus the data
/// pointer the caller would otherwise have to set on every tick.
template <class C, class A>
using BareStepFn = void (*)(const StepWord<C, A>* steps, C&, const A&, Runtime&);
/// A StateManager's step: it takes no steps and no data, which it finds
/// through the Seat that `Runtime&` is the start of, where it needs them.
template <class C, class A>
using MachineStepFn = void (*)(C&, const A&, Runtime&);

/// What a StateManager's fast tick reads, laid out so that its step finds all
/// of it from the Runtime it receives: the Runtime, the block pointer (the
/// block holds the machine's state data kSeatDataOffset bytes in), the current
/// state's step, and the table's steps. Perform calls `step` (one load, no
/// index) with three arguments, and the step reads `steps` only where it needs
/// them (a transition, a condition on the time in state or with data, a state
/// with data); a transition sets `step` as it sets the state id. A state on
/// the general path, or a machine with a reason to take it (kGeneralReasons),
/// has MachineGeneralStep as its step.
struct Seat {
    Runtime rt;
    void* home = nullptr;
    void (*step)() = nullptr;   // the current state's machine step, valid while rt.flags has kFresh
    const void* steps = nullptr; // the table's MachineSteps
};
/// A StateManager's tick on the general path, called as its Seat's step:
/// defined with StateManager (state_manager.hpp).
template <class C, class A>
void MachineGeneralStep(C& c, const A& a, Runtime& rt);

/// The Seat whose Runtime `rt` is; only for a Seat's Runtime.
[[gnu::always_inline]] inline Seat& SeatOf(Runtime& rt) noexcept {
    static_assert(std::is_standard_layout_v<Seat> && offsetof(Seat, rt) == 0,
                  "a Seat's first member is its Runtime: the two are pointer-interconvertible");
    return reinterpret_cast<Seat&>(rt);
}
inline constexpr std::size_t kSeatDataOffset = 64;

/// The state data of the machine whose Runtime `rt` is; only for a Seat's Runtime.
[[gnu::always_inline]] inline std::byte* SeatedData(Runtime& rt) noexcept {
    return static_cast<std::byte*>(SeatOf(rt).home) + kSeatDataOffset;
}
/// The table's StateManager steps, from the Seat whose Runtime `rt` is.
template <class C, class A>
[[gnu::always_inline]] inline const StepWord<C, A>* SeatedSteps(Runtime& rt) noexcept {
    return static_cast<const StepWord<C, A>*>(SeatOf(rt).steps);
}

/// One word of a table's steps: the array is [dt, selfs, step of state 0,
/// step of state 1, ...] and machines hold a pointer to the first step, so a
/// crowd's tick is `steps[state].step(steps, ...)`: 8-byte entries that the call's
/// addressing mode indexes, with no context pointer to load for the callee
/// (a {step, context} pair would add that load to every tick).
/// A step reads its context, `steps[kSelfsWord].selfs[state]`, only where it
/// needs it (a transition that fires, conditions or states with data), and
/// the fixed delta time from `steps[kDtWord]`. Each word is written once
/// through the member it is read by: a table without per-character data
/// (Table::bare) holds `bare` steps, one with data holds `step`s, and its
/// StateManagers' array (Table::MachineSteps) holds `machine` steps of its own
/// (see Seat).
template <class C, class A>
union StepWord {
    StepFn<C, A> step = nullptr;
    BareStepFn<C, A> bare;
    MachineStepFn<C, A> machine;
    const Stepper<C, A>* const* selfs;
    float dt;
};
inline constexpr std::ptrdiff_t kDtWord = -2;
inline constexpr std::ptrdiff_t kSelfsWord = -1;
inline constexpr std::size_t kStepHeaderWords = 2;

/// A crowd character's fast step: `data` (its state data) is passed where the
/// table has data (kHasData: its words hold `step`s), else the bare step runs
/// and `data` is not read.
template <bool kHasData, class C, class A>
[[gnu::always_inline]] inline void CallStep(const StepWord<C, A>* steps, StateIndex state, C& c, const A& a,
                                            Runtime& rt, [[maybe_unused]] std::byte* data) {
    if constexpr (kHasData) steps[state].step(steps, c, a, rt, data);
    else steps[state].bare(steps, c, a, rt);
}

/// The context of the state whose step runs: its Stepper (chain or facts).
template <class Self, class C, class A>
[[gnu::always_inline]] inline const Self& SelfOf(const StepWord<C, A>* steps, StateIndex state) noexcept {
    return static_cast<const Self&>(*steps[kSelfsWord].selfs[state]);
}

/// The start of what a state's fast step reads: the step itself (copied into
/// the table's steps), then, in a derived type, its chain or its state's facts.
template <class C, class A>
struct Stepper {
    StepFn<C, A> step = nullptr;
    BareStepFn<C, A> bare = nullptr;   // null if the state's step reads per-character data
    MachineStepFn<C, A> machine = nullptr; // the step a StateManager calls (see Seat)
};

/// The Stepper of a state without transitions: where its object lives.
template <class C, class A>
struct NoneStepper : Stepper<C, A> {
    std::uint32_t offset = 0;
};

/// A state's or an action's hook on the general path.
template <class C, class A>
using HookFn = void (*)(TickContext<C, A>&, std::uint32_t offset);

/// One `From<S>()` chain: its conditions in order. Owned by the table.
template <class C, class A>
struct ChainBase : Stepper<C, A> {
    using ProbeFn = int (*)(const ChainBase&, const C&, const A&, float, int start);
    using PrepareFn = void (*)(const ChainBase&, int index, const C&, const A&, std::byte* data);
    ProbeFn probe = nullptr;         // index of the first condition from `start` that holds, or -1
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
using ChainPtr = std::unique_ptr<ChainBase<C, A>, ChainDelete>;

/// A transition taken when an event is sent.
struct EventEdge {
    Event event;
    StateIndex to;
};

/// A transition on a typed event (From<S>().On<E>(guard).To<T>()), or its
/// handling in place (.Handle(): `to` is kNoState).
template <class C>
struct TypedEdge {
    const void* type = nullptr; // TypeKey<E>
    Event event;                // how observers see it: E's name
    bool (*guard)(const void* guard, const C&, const void* payload) = nullptr; // null: always
    std::shared_ptr<const void> guard_object;
    StateIndex to = kNoState;
    // Hands the payload to the receiving state (T, or S in place): its OnEvent(C&, const E&); null if it has none.
    void (*deliver)(C&, std::byte* data, std::uint32_t offset, const void* payload) = nullptr;
};

/// One action of a state's list (Do<X>(args...)): its hooks and where its copy lives.
template <class C, class A>
struct ActionSlot {
    std::string_view name;
    std::uint32_t offset = 0;
    HookFn<C, A> enter = nullptr;
    HookFn<C, A> update = nullptr;
    HookFn<C, A> exit = nullptr;
};

/// Something each character holds a copy of: a state with data, or an action.
struct DataItem {
    std::uint32_t offset = 0;
    void (*construct)(void* at, const void* prototype) = nullptr;
    void (*relocate)(void* dst, void* src) = nullptr;
    void (*destroy)(void*) = nullptr;
    std::shared_ptr<const void> prototype; // actions: the object Do<X>(args...) built
};

/// How each character's copy of a T is made, moved and destroyed: a copy of
/// `prototype` if kFromPrototype, else default-constructed.
template <class T, bool kFromPrototype>
DataItem DataItemFor(std::uint32_t offset, std::shared_ptr<const void> prototype) {
    DataItem item;
    item.offset = offset;
    if constexpr (kFromPrototype)
        item.construct = [](void* at, const void* proto) { ::new (at) T(*static_cast<const T*>(proto)); };
    else
        item.construct = [](void* at, const void*) { ::new (at) T(); };
    item.relocate = [](void* dst, void* src) {
        T* from = static_cast<T*>(src);
        ::new (dst) T(std::move(*from));
        from->~T();
    };
    item.destroy = [](void* p) { static_cast<T*>(p)->~T(); };
    item.prototype = std::move(prototype);
    return item;
}

/// The cold part of a state: configuration, queries, the general path, tools.
template <class C, class A>
struct StateMeta {
    std::string_view name;
    const void* key = nullptr;       // TypeKey of the state's type (or tag); null for a keyed state
    const void* key_type = nullptr;  // keyed states: TypeKey of the key's type
    std::uint64_t key_value = 0;     // keyed states: the key
    std::unique_ptr<const std::string> owned_name; // a keyed state's name when the key is a number
    bool has_data = false;
    bool takes_machine = false; // a hook takes the machine handle
    bool slow = false;          // set by Finalize: this state's tick runs on the general path
    bool has_enter = false;     // it has an OnStateEnter hook
    bool pass_through = false;  // SetPassThrough<S>(): its transitions are tried again as soon as it is entered
    std::uint32_t offset = 0;
    void (*init)(C&, std::byte*, std::uint32_t) = nullptr;
    bool (*can_enter)(const C&, std::byte*, std::uint32_t, const StateRef& from) = nullptr;
    bool (*can_exit)(const C&, std::byte*, std::uint32_t, const StateRef& to) = nullptr;
    HookFn<C, A> enter = nullptr;
    HookFn<C, A> perform = nullptr;
    HookFn<C, A> exit = nullptr;
    HookFn<C, A> pause = nullptr;  // OnStatePause, if it has one: buried by a push
    HookFn<C, A> resume = nullptr; // OnStateResume, if it has one: back on top after a pop
    NoneStepper<C, A> step_none; // the fast step when the state has no transitions
    std::vector<ChainPtr<C, A>> chains;
    std::vector<EventEdge> events;
    std::vector<TypedEdge<C>> typed;
    std::vector<ActionSlot<C, A>> actions;
};

/// The pseudo-state that holds the any-state transitions (FromAny()): never
/// entered, its transitions are tried before the active path's.
struct Any {};

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



/// Seconds in state: ticks * fixed_dt in double, exact to the dt float's value for every tick count
/// (a float product stopped advancing at 2^24 ticks).
[[gnu::always_inline]] inline double SecondsOf(std::uint32_t ticks, float dt) noexcept {
    return static_cast<double>(ticks) * static_cast<double>(dt);
}
/// The time in state a condition receives, as a float: the ticks (exact below
/// 2^24) times dt. Past 2^24 ticks a float cannot tell one tick from the next
/// whichever way it is computed, so the float product is as good as any and
/// costs less on the tick path than going through a double.
[[gnu::always_inline]] inline float TimeOf(std::uint32_t ticks, float dt) noexcept {
    return static_cast<float>(ticks) * dt;
}
/// One more tick in state, saturating at 2^32-1 (about 2.2 years at 60 Hz)
/// instead of wrapping to 0; branch-free, as it is on every tick's path.
[[gnu::always_inline]] inline std::uint32_t CountTick(std::uint32_t& ticks) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    std::uint32_t next;
    const bool wrapped = __builtin_add_overflow(ticks, 1u, &next); // an add and an sbb: the cheapest form tried
    ticks = next - static_cast<std::uint32_t>(wrapped);
#else
    ticks += static_cast<std::uint32_t>(ticks != UINT32_MAX); // a compare, a set and an add
#endif
    return ticks;
}

/// A state key as errors show it: "CreatureState::Attack1", "CreatureState(300)", "7".
template <class K>
std::string KeyText(K key) {
    if constexpr (std::is_enum_v<K>) {
        const std::string_view name = EnumName(key);
        if (!name.empty()) return detail::Format("{}::{}", TypeName<K>(), name);
        return detail::Format("{}({})", TypeName<K>(), static_cast<long long>(key));
    } else {
        return detail::Format("{}", key);
    }
}

/// Tests only: a machine's (or a crowd character's) ticks in state, to set
/// without ticking 2^32 times. Each machine and crowd befriends it.
struct TicksAccess {
    template <class M>
    static std::uint32_t& Of(M& machine) noexcept {
        return machine.Ticks_();
    }
    template <class C>
    static std::uint32_t& Of(C& crowd, std::size_t i) noexcept {
        return crowd.Ticks_(i);
    }
};

/// A state with no transitions: count the tick and perform.
template <class C, class A, class S>
void StepNone(const StepWord<C, A>* steps, C& c, const A& a, Runtime& rt, std::byte* data) {
    const StateIndex state = rt.state;
    CountTick(rt.ticks);
    if constexpr (std::is_empty_v<S>) {
        (void)steps;
        (void)state;
        CallPerform(StateObject<S>(data, 0), c, a);
    } else {
        CallPerform(StateObject<S>(data, SelfOf<NoneStepper<C, A>>(steps, state).offset), c, a);
    }
}
/// StepNone of a state without data, in a table without data.
template <class C, class A, class S>
void StepNoneBare(const StepWord<C, A>*, C& c, const A& a, Runtime& rt) {
    CountTick(rt.ticks);
    CallPerform(StateObject<S>(nullptr, 0), c, a);
}
/// StepNone for a StateManager (see Seat).
template <class C, class A, class S>
void StepNoneMachine(C& c, const A& a, Runtime& rt) {
    if constexpr (std::is_empty_v<S>) StepNoneBare<C, A, S>(nullptr, c, a, rt);
    else StepNone<C, A, S>(SeatedSteps<C, A>(rt), c, a, rt, SeatedData(rt));
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
template <class C, class A>
[[gnu::always_inline]] inline void EnterMachineTarget(Runtime& rt, const Target& to, const StepWord<C, A>* steps) noexcept {
    rt = Runtime{to.id, static_cast<std::uint16_t>(kMachineFast | kBusy), 0};
    SeatOf(rt).step = reinterpret_cast<void (*)()>(steps[to.id].machine);
}

/// Leave S for T: S's exit, the switch (T rebuilt by the maker, if any), T's
/// enter, then T performs this tick.
template <class C, class A, class S, class T, bool kMachine, class Maker>
[[gnu::always_inline]] inline void Fire(C& c, const A& a, Runtime& rt, std::byte* data, std::uint32_t from_offset,
                                        const Target& to, const Maker& make,
                                        [[maybe_unused]] const StepWord<C, A>* steps) {
    CallExit(StateObject<S>(data, from_offset), c, a);
    if constexpr (!std::is_same_v<Maker, NoMaker>) RebuildState<T>(data + to.offset, make(std::as_const(c), a));
    if constexpr (kMachine) EnterMachineTarget(rt, to, steps);
    else EnterTarget(rt, to);
    T& next = StateObject<T>(data, to.offset);
    CallEnter(next, c, a);
    CallPerform(next, c, a);
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
struct Chain final : ChainBase<C, A> {
    static constexpr std::size_t kCount = sizeof...(Edges);
    using Store = EdgeStore<std::index_sequence_for<Edges...>, Edges...>;

    Store edges;
    std::array<Target, kCount> target_array;
    static constexpr std::array<std::uint8_t, kCount> kForced{std::uint8_t{Edges::kForced}...};
    static constexpr std::array<std::uint8_t, kCount> kKinds{Edges::kKind...};
    /// Whether a tick of S can touch per-character data: S's, a target's, or a target's maker.
    static constexpr bool kReadsData = !std::is_empty_v<S> || (... || !std::is_empty_v<typename Edges::To>) ||
                                       (... || !std::is_same_v<typename Edges::Maker, NoMaker>);

    Chain(Store&& store, const std::array<Target, kCount>& target_list)
        : edges(std::move(store)), target_array(target_list) {
        this->probe = &Probe;
        // Only a chain whose transitions build their target needs the general path's rebuild.
        if constexpr ((... || !std::is_same_v<typename Edges::Maker, NoMaker>)) this->prepare = &PrepareEdge;
        this->step = &Step;
        if constexpr (!kReadsData) this->bare = &StepBare;
        this->machine = &StepMachine;
        this->targets = target_array.data();
        this->forced = kForced.data();
        if constexpr ((... || (Edges::kKind != kKindChange))) this->kinds = kKinds.data();
        this->count = kCount;
        this->type = TypeKey<Chain>();
        this->destroy = [](ChainBase<C, A>* chain) noexcept { delete static_cast<Chain*>(chain); };
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

    [[TICKFSM_DETAIL_COLD]] static int Probe(const ChainBase<C, A>& base, const C& c, const A& a, float t, int start) {
        return static_cast<const Chain&>(base).ProbeAll(c, a, t, start, std::index_sequence_for<Edges...>{});
    }

    /// The general path's version of Fire's rebuild: edge `index` builds its target.
    [[TICKFSM_DETAIL_COLD]] static void PrepareEdge(const ChainBase<C, A>& base, int index, const C& c, const A& a, std::byte* data) {
        const Chain& self = static_cast<const Chain&>(base);
        self.PrepareAt(index, c, a, data, std::index_sequence_for<Edges...>{});
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
    [[gnu::always_inline]] static const Chain& Of(const StepWord<C, A>* steps, StateIndex state) noexcept {
        return static_cast<const Chain&>(SelfOf<ChainBase<C, A>>(steps, state));
    }

    /// Condition I, read from the chain only if it holds data: an empty one
    /// (a captureless lambda) costs no load.
    template <std::size_t I>
    [[gnu::always_inline]] static const auto& ConditionAt(const StepWord<C, A>* steps, StateIndex state) noexcept {
        using Holder = EdgeHolder<I, std::tuple_element_t<I, std::tuple<Edges...>>>;
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
    [[gnu::always_inline]] static bool FireFirst([[maybe_unused]] const StepWord<C, A>* steps,
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
    [[TICKFSM_DETAIL_OUT_OF_LINE]] static void FireAt(const StepWord<C, A>* steps, C& c, const A& a, Runtime& rt,
                                                      Data... data) {
        using E = std::tuple_element_t<I, std::tuple<Edges...>>;
        const Chain& self = Of(steps, rt.state);
        Fire<C, A, S, typename E::To, false>(c, a, rt, DataOf(data...), OffsetOf(steps, rt.state),
                                             self.target_array[I],
                                             static_cast<const EdgeHolder<I, E>&>(self.edges).maker, steps);
    }
    /// FireAt for a StateManager's step: its arguments are the step's, so the
    /// jump to it moves no register; it finds the steps and data through the Seat.
    template <std::size_t I>
    [[TICKFSM_DETAIL_OUT_OF_LINE]] static void FireAtMachine(C& c, const A& a, Runtime& rt) {
        using E = std::tuple_element_t<I, std::tuple<Edges...>>;
        const StepWord<C, A>* steps = SeatedSteps<C, A>(rt);
        const Chain& self = Of(steps, rt.state);
        std::byte* data = nullptr;
        if constexpr (kReadsData) data = SeatedData(rt);
        Fire<C, A, S, typename E::To, true>(c, a, rt, data, OffsetOf(steps, rt.state), self.target_array[I],
                                            static_cast<const EdgeHolder<I, E>&>(self.edges).maker, steps);
    }
    template <std::size_t I, bool kMachine, class... Data>
    [[gnu::always_inline]] static void FireOne(const StepWord<C, A>* steps, C& c, const A& a, Runtime& rt,
                                               Data... data) {
        if constexpr (kMachine) FireAtMachine<I>(c, a, rt);
        else FireAt<I, Data...>(steps, c, a, rt, data...);
    }

    /// Where S's object lives in a character's data (0 if S has none: no load).
    [[gnu::always_inline]] static std::uint32_t OffsetOf(const StepWord<C, A>* steps, StateIndex state) noexcept {
        if constexpr (std::is_empty_v<S>) {
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
    [[gnu::always_inline]] static void Tick(const StepWord<C, A>* steps, C& c, const A& a, Runtime& rt,
                                            Data... data) {
        const std::uint32_t ticks = CountTick(rt.ticks);
        if (!FireFirst<kMachine>(steps, c, a, TimeOf(ticks, steps[kDtWord].dt), rt, std::index_sequence_for<Edges...>{},
                       data...))
            CallPerform(StateObject<S>(DataOf(data...), OffsetOf(steps, rt.state)), c, a);
    }
    /// The step in a table with per-character data.
    static void Step(const StepWord<C, A>* steps, C& c, const A& a, Runtime& rt, [[maybe_unused]] std::byte* data) {
        if constexpr (kReadsData) Tick(steps, c, a, rt, data);
        else Tick(steps, c, a, rt);
    }
    /// The step in a table without (Table::bare).
    static void StepBare(const StepWord<C, A>* steps, C& c, const A& a, Runtime& rt) { Tick(steps, c, a, rt); }
    /// A StateManager's step (see Seat): a transition also sets the Seat's step.
    static void StepMachine(C& c, const A& a, Runtime& rt) {
        const StepWord<C, A>* steps = SeatedSteps<C, A>(rt);
        if constexpr (kReadsData) Tick<true>(steps, c, a, rt, SeatedData(rt));
        else Tick<true>(steps, c, a, rt);
    }
};

/// A chain whose conditions are only known at run time (a keyed machine's):
/// tried on the general path through one call per condition.
template <class C, class A>
struct ErasedChain final : ChainBase<C, A> {
    struct Condition {
        bool (*call)(const void* condition, const C&, const A&, float) = nullptr;
        std::shared_ptr<const void> condition;
    };
    std::vector<Condition> conditions;
    std::vector<Target> target_list;
    std::vector<std::uint8_t> forced_list;

    ErasedChain() {
        this->probe = &Probe;
        this->type = TypeKey<ErasedChain>();
        this->destroy = [](ChainBase<C, A>* chain) noexcept { delete static_cast<ErasedChain*>(chain); };
    }

    template <class F>
    void Add(F&& condition, Target to, bool skip_gates) {
        using Cond = std::decay_t<F>;
        conditions.push_back(Condition{[](const void* f, const C& c, const A& a, float t) {
                                           return CallCondition(*static_cast<const Cond*>(f), c, a, t);
                                       },
                                       std::make_shared<const Cond>(std::forward<F>(condition))});
        target_list.push_back(to);
        forced_list.push_back(skip_gates ? 1 : 0);
        this->targets = target_list.data();
        this->forced = forced_list.data();
        this->count = conditions.size();
    }

    static int Probe(const ChainBase<C, A>& base, const C& c, const A& a, float t, int start) {
        const auto& self = static_cast<const ErasedChain&>(base);
        for (std::size_t i = static_cast<std::size_t>(start); i < self.conditions.size(); ++i)
            if (self.conditions[i].call(self.conditions[i].condition.get(), c, a, t)) return static_cast<int>(i);
        return -1;
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
};

template <class C, class A>
struct Table {
    /// [dt, selfs, one step per state]: see StepWord. Steps() is what machines hold.
    std::vector<StepWord<C, A>> words = std::vector<StepWord<C, A>>(kStepHeaderWords);
    std::vector<StepWord<C, A>> machine_words; // its StateManagers' steps, laid out as `words` (see Seat)
    std::vector<const Stepper<C, A>*> selfs; // steps[kSelfsWord].selfs
    std::vector<StateMeta<C, A>> meta;
    std::vector<const void*> keys;
    std::vector<DataItem> items;          // per-character copies, in construction order
    std::vector<std::string_view> names;  // set by Finalize, for observers
    std::vector<TreeNode> tree;           // one per state: which state holds which (see tree.hpp)
    struct KeyOf {
        const void* type;
        std::uint64_t value;
        bool operator==(const KeyOf&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const KeyOf& k) const noexcept {
            return std::hash<const void*>()(k.type) ^ static_cast<std::size_t>(k.value * 0x9E3779B97F4A7C15ull);
        }
    };
    std::unordered_map<KeyOf, StateIndex, KeyHash> keyed; // keyed states, for FindKey
    float dt = 1.0f / 60.0f;
    StateIndex initial = kNoState;
    StateIndex any = kNoState;            // the Any pseudo-state, once FromAny() was called
    std::uint32_t stack = 0;              // with SetPushCapacity<N>(): the PushStack's offset in a character's data
    std::uint32_t stack_capacity = 0;     // N; 0 without SetPushCapacity
    std::uint32_t data_size = 0;
    std::uint32_t data_align = 1;
    bool finalized = false;
    bool keep_previous = false;           // KeepPreviousState(): every change records where it came from
    bool nested = false;                  // some state holds substates: every tick takes the general path
    bool passing = false;                 // some state is a pass-through state
    bool uses_machine = false;            // set by Finalize: some hook may call NextState
    bool all_fast = false;                // set by Finalize: every state ticks on the fast path
    bool bare = false;                    // set by Finalize: no per-character data; steps are `bare`
    // Set by Finalize: a character's first tick runs no hook before the initial
    // state's step (no OnStateInit anywhere, no OnStateEnter on a fast initial
    // state), so it can start by writing its Runtime and take the fast path.
    bool quick_start = false;
    // Owners: every machine running on this table, plus the registry once it is shared.
    std::atomic<std::size_t> refs{1};

    explicit Table(float fixed_dt) : dt(fixed_dt) {}

    /// The first state's step (see StepWord); valid once finalized, until the table changes.
    const StepWord<C, A>* Steps() const noexcept { return words.data() + kStepHeaderWords; }
    /// The steps a StateManager calls, all `machine` steps (see Seat), with the
    /// same header as Steps(); valid once finalized, until the table changes.
    const StepWord<C, A>* MachineSteps() const noexcept {
        return machine_words.data() + kStepHeaderWords;
    }
    Table(const Table&) = delete;
    Table& operator=(const Table&) = delete;

    void Acquire() noexcept { refs.fetch_add(1, std::memory_order_relaxed); }
    static void Release(Table* table) noexcept {
        if (table && table->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete table;
    }

    static std::string CharacterName() {
        return detail::Format("StateManager<{}, {}>", TypeName<C>(), TypeName<A>());
    }

    [[noreturn]] static void Fail(std::string_view what) {
        ReportConfigError(detail::Format("tickfsm: {}: {}", CharacterName(), what));
    }

    StateIndex Find(const void* key) const noexcept {
        for (std::size_t i = 0; i < keys.size(); ++i)
            if (keys[i] == key) return static_cast<StateIndex>(i);
        return kNoState;
    }

    std::string_view NameOf(StateIndex id) const noexcept {
        return id < meta.size() ? meta[id].name : std::string_view{};
    }

    /// Room for one more per-character object of type T; returns its offset.
    template <class T>
    std::uint32_t Place() {
        const std::uint32_t align = alignof(T);
        const std::uint32_t offset = (data_size + align - 1) / align * align;
        data_size = offset + static_cast<std::uint32_t>(sizeof(T));
        data_align = data_align > align ? data_align : align;
        return offset;
    }

    /// Id of S, adding S to the table if it is new.
    template <class S>
    StateIndex Register() {
        return Add<S, false>(TypeKey<S>(), StateName<S>(), nullptr);
    }

    /// Adds a state of class S known by `identity` (its TypeKey, a tag's, or null
    /// for a keyed state) and `name`; each character's object is a copy of
    /// `prototype` if kFromPrototype, else default-constructed.
    template <class S, bool kFromPrototype>
    [[TICKFSM_DETAIL_COLD]] StateIndex Add(const void* identity, std::string_view name, std::shared_ptr<const S> prototype) {
        static_assert(CheckState<S, C, A>());
        static_assert(alignof(S) <= 64, "tickfsm: a state aligned to more than 64 bytes is not supported; lower its "
                                        "alignas or keep the over-aligned data behind a pointer");
        const void* key = identity;
        if (key)
            if (const StateIndex found = Find(key); found != kNoState) return found;
        if (meta.size() >= kNoState - 1)
            Fail(detail::Format("cannot add state {}: a machine holds at most {} states", name, kNoState - 1));

        // Reserve first so that nothing below throws half-way.
        ReserveOneMore(words);
        ReserveOneMore(selfs);
        ReserveOneMore(keys);
        ReserveOneMore(meta);
        ReserveOneMore(items);
        ReserveOneMore(tree);

        StateMeta<C, A> m;
        m.name = name;
        m.key = key;
        m.takes_machine = kTakesMachine<S, C, A>;
        m.has_enter = HasOnStateEnter<S, C, A> || HasOnStateEnterM<S, C, A>;
        if constexpr (!std::is_empty_v<S>) {
            m.has_data = true;
            m.offset = Place<S>();
            DataItem item = DataItemFor<S, kFromPrototype>(m.offset, std::move(prototype));
            items.push_back(std::move(item));
        }
        if constexpr (HasCanEnterState<S, C>)
            m.can_enter = [](const C& c, std::byte* data, std::uint32_t offset, const StateRef& from) {
                return static_cast<bool>(StateObject<S>(data, offset).CanEnterState(c, from));
            };
        if constexpr (HasCanExitState<S, C>)
            m.can_exit = [](const C& c, std::byte* data, std::uint32_t offset, const StateRef& to) {
                return static_cast<bool>(StateObject<S>(data, offset).CanExitState(c, to));
            };
        if constexpr (HasOnStateInit<S, C>)
            m.init = [](C& c, std::byte* data, std::uint32_t offset) { StateObject<S>(data, offset).OnStateInit(c); };
        m.enter = &EnterHook<S>;
        m.perform = &PerformHook<S>;
        m.exit = &ExitHook<S>;
        if constexpr (HasOnStatePause<S, C, A> || HasOnStatePauseM<S, C, A>) m.pause = &PauseHook<S>;
        if constexpr (HasOnStateResume<S, C, A> || HasOnStateResumeM<S, C, A>) m.resume = &ResumeHook<S>;
        m.step_none.step = &StepNone<C, A, S>;
        if constexpr (std::is_empty_v<S>) m.step_none.bare = &StepNoneBare<C, A, S>;
        m.step_none.machine = &StepNoneMachine<C, A, S>;
        m.step_none.offset = m.offset;
        meta.push_back(std::move(m));
        keys.push_back(key);
        tree.push_back({});
        words.push_back({}); // set by Finalize
        selfs.push_back(nullptr);
        finalized = false;
        if constexpr (std::is_same_v<S, Any>) any = static_cast<StateIndex>(meta.size() - 1);
        return static_cast<StateIndex>(meta.size() - 1);
    }

    /// Id of the keyed state `value` of key type `key_type`, or kNoState.
    StateIndex FindKey(const void* key_type, std::uint64_t value) const noexcept {
        const auto found = keyed.find(KeyOf{key_type, value});
        return found == keyed.end() ? kNoState : found->second;
    }
    /// State `id` becomes the keyed state `value` of key type `key_type`.
    void SetKey(StateIndex id, const void* key_type, std::uint64_t value) {
        keyed.emplace(KeyOf{key_type, value}, id); // first: if it throws, the state has no key yet
        meta[id].key_type = key_type;
        meta[id].key_value = value;
    }

    /// Undo the last Register (its data state could not be constructed).
    void PopLast() noexcept {
        const StateMeta<C, A>& m = meta.back();
        if (m.has_data) {
            data_size = m.offset; // alignment kept: harmless
            items.pop_back();
        }
        if (any == meta.size() - 1) any = kNoState;
        meta.pop_back();
        keys.pop_back();
        tree.pop_back();
        words.pop_back();
        selfs.pop_back();
    }

    /// Pick the step for every state and point each at its context. Run once the
    /// table's shape is final (before the first tick): contexts point into
    /// `meta`, which moves while states are being added.
    [[TICKFSM_DETAIL_COLD]] void Finalize() {
        // A state needs the general path if its hooks take the machine handle or
        // it has actions; so does a state that can enter such a state, because
        // the fast path inlines the entered state's hooks.
        std::vector<bool> general(meta.size());
        for (std::size_t s = 0; s < meta.size(); ++s)
            general[s] = meta[s].takes_machine || !meta[s].actions.empty();
        uses_machine = false;
        all_fast = true;
        names.clear();
        for (std::size_t s = 0; s < meta.size(); ++s) {
            StateMeta<C, A>& m = meta[s];
            names.push_back(m.name);
            std::size_t non_empty = 0;
            m.slow = general[s];
            for (const auto& chain : m.chains) {
                non_empty += chain->count != 0;
                for (std::size_t i = 0; i < chain->count; ++i) {
                    const StateMeta<C, A>& to = meta[chain->targets[i].id];
                    const bool gated = !chain->forced[i] && (m.can_exit || to.can_enter);
                    m.slow = m.slow || general[chain->targets[i].id] || gated;
                }
            }
            // a chain known only at run time, or with pushes, pops or waits, is the general path's
            for (const auto& chain : m.chains) m.slow = m.slow || (chain->count != 0 && !chain->step) || chain->kinds;
            // several chains, history to keep, a tree, any-state transitions
            m.slow = m.slow || non_empty > 1 || keep_previous || nested || any != kNoState || stack_capacity != 0 ||
                     passing;
            uses_machine = uses_machine || general[s];
            all_fast = all_fast && !m.slow;
        }
        bare = data_size == 0; // then no state has data and no target a maker: every fast step has a bare form
        machine_words.assign(words.size(), StepWord<C, A>{});
        for (std::size_t s = 0; s < meta.size(); ++s) {
            StateMeta<C, A>& m = meta[s];
            const ChainBase<C, A>* only = nullptr;
            std::size_t non_empty = 0;
            for (const auto& chain : m.chains) {
                chain->offset = m.offset;
                for (std::size_t i = 0; i < chain->count; ++i)
                    chain->targets[i].flags = meta[chain->targets[i].id].slow ? kSlow : 0;
                if (chain->count != 0) {
                    ++non_empty;
                    only = chain.get();
                }
            }
            // A crowd never reads a slow state's entry: kSlow sends its ticks to the general path.
            const Stepper<C, A>* stepper = nullptr;
            if (!m.slow) {
                if (non_empty == 0) stepper = &m.step_none;
                else stepper = only;
            }
            if (bare) {
                words[kStepHeaderWords + s].bare = stepper ? stepper->bare : nullptr;
            } else {
                words[kStepHeaderWords + s].step = stepper ? stepper->step : nullptr;
            }
            machine_words[kStepHeaderWords + s].machine = stepper ? stepper->machine : &MachineGeneralStep<C, A>;
            selfs[s] = stepper;
        }
        quick_start = initial < meta.size() && !meta[initial].slow && !meta[initial].has_enter;
        for (const StateMeta<C, A>& m : meta) quick_start = quick_start && !m.init;
        // The header words sit just before the steps (steps[kDtWord], steps[kSelfsWord]).
        constexpr auto kDtAt = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(kStepHeaderWords) + kDtWord);
        constexpr auto kSelfsAt = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(kStepHeaderWords) + kSelfsWord);
        words[kDtAt].dt = dt;
        words[kSelfsAt].selfs = selfs.data();
        machine_words[kDtAt].dt = dt;
        machine_words[kSelfsAt].selfs = selfs.data();
        finalized = true;
    }

    /// A reference to state `id` (or to none) for a gate.
    StateRef Ref(StateIndex id) const noexcept {
        if (id == kNoState) return {};
        return StateRef(keys[id], meta[id].name, StateId{id}, meta[id].key_type, meta[id].key_value);
    }

    /// Whether the gates let the machine go from `from` to `to`: from's
    /// CanExitState told `to`, then to's CanEnterState told `from`.
    bool Allowed(StateIndex from, StateIndex to, const C& c, std::byte* data) const {
        if (from != kNoState) {
            const StateMeta<C, A>& leaving = meta[from];
            if (leaving.can_exit && !leaving.can_exit(c, data, leaving.offset, Ref(to))) return false;
        }
        const StateMeta<C, A>& entering = meta[to];
        return !entering.can_enter || entering.can_enter(c, data, entering.offset, Ref(from));
    }

    /// Which state the conditions of `from` send the machine to at time t: the
    /// first whose condition holds and whose gates agree (forced ones skip them).
    /// For the any-state transitions, `leaf` is the current state: its gate is
    /// asked, and a transition into an active state is passed over. A
    /// ToWhenDone transition also waits for the current state `active` to be
    /// done: `done` (it called Machine::Done()), or its CanExitState agrees.
    Probed<C, A> Probe(StateIndex from, const C& c, const A& a, float t, std::byte* data,
                       StateIndex leaf = kNoState, StateIndex active = kNoState, bool done = false) const {
        const StateIndex gate = leaf != kNoState ? leaf : from;
        std::size_t before = 0;
        for (const auto& chain : meta[from].chains) {
            for (int start = 0;;) {
                const int i = chain->probe(*chain, c, a, t, start);
                if (i < 0) break;
                const StateIndex to = chain->targets[i].id;
                if (leaf != kNoState && Within(leaf, to)) {
                    start = i + 1;
                    continue;
                }
                if (chain->kinds && chain->kinds[i] == kKindWait && !done && active != kNoState && active != from) {
                    const StateMeta<C, A>& current = meta[active];
                    if (current.can_exit && !current.can_exit(c, data, current.offset, Ref(to))) {
                        start = i + 1; // waits: tried again next tick, condition and all
                        continue;
                    }
                }
                if (chain->forced[i] || Allowed(gate, to, c, data))
                    return {to, before + static_cast<std::size_t>(i), chain.get(), i};
                start = i + 1;
            }
            before += chain->count;
        }
        return {};
    }

    /// Which state the conditions of the active path of `leaf` send the machine
    /// to: each state's transitions from the outermost state in, each with its
    /// own time in state (`leaf_ticks` for the leaf, its slot's for a composite,
    /// one tick on if `ahead`: a dry run sees the ticks the next tick will).
    Probed<C, A> ProbePath(StateIndex leaf, std::uint32_t leaf_ticks, const C& c, const A& a, std::byte* data,
                           bool ahead = false, bool done = false) const {
        if (any != kNoState) // the any-state transitions first, with the current state's time
            if (const Probed<C, A> fired = Probe(any, c, a, TimeOf(leaf_ticks, dt), data, leaf); fired.to != kNoState)
                return fired;
        if (!nested) return Probe(leaf, c, a, TimeOf(leaf_ticks, dt), data, kNoState, leaf, done);
        TreeIndex path[kMaxDepth];
        const std::size_t n = ActivePathOf(tree, leaf, path);
        for (std::size_t i = 0; i < n; ++i) {
            const StateIndex s = path[i];
            std::uint32_t ticks = leaf_ticks;
            if (s != leaf) {
                ticks = SlotOf(tree[s], data).ticks;
                if (ahead) CountTick(ticks);
            }
            const Probed<C, A> fired = Probe(s, c, a, TimeOf(ticks, dt), data, kNoState, leaf, done);
            if (fired.to != kNoState) return fired;
        }
        return {};
    }

    /// The transition for `event` of the innermost state of `leaf`'s active
    /// path that has one (the leaf first, then its parent, ...), or null.
    const EventEdge* FindEventOutward(StateIndex leaf, const Event& event) const noexcept {
        for (StateIndex s = leaf; s != kNoState; s = tree[s].parent)
            if (const EventEdge* edge = FindEvent(s, event)) return edge;
        return nullptr;
    }

    /// The leaf entered on entering `state` with no history: its initial substate's, ...
    StateIndex InitialLeaf(StateIndex state) const noexcept {
        if (state != kNoState)
            while (tree[state].initial != kNoNode) state = tree[state].initial;
        return state;
    }

    /// Every state's name, by id.
    std::vector<std::string_view> StateNames() const {
        std::vector<std::string_view> list;
        list.reserve(meta.size());
        for (const StateMeta<C, A>& m : meta) list.push_back(m.name);
        return list;
    }

    /// "Combat/Attack": the active path of `leaf` ("" for none).
    std::string PathText(StateIndex leaf) const { return detail::PathText(tree, StateNames(), leaf); }

    /// Every state but the Any pseudo-state, by id (StateManager::States()).
    std::vector<StateInfo> DescribeStates() const {
        std::vector<StateInfo> list;
        for (std::size_t s = 0; s < meta.size(); ++s) {
            if (s == any) continue;
            StateInfo info;
            info.id = StateId{static_cast<StateIndex>(s)};
            info.name = meta[s].name;
            info.parent = StateId{tree[s].parent};
            info.initial = StateId{tree[s].initial};
            info.history = tree[s].history;
            info.pass_through = meta[s].pass_through;
            info.is_initial = s == initial;
            list.push_back(info);
        }
        return list;
    }

    /// Every transition, the any-state ones first, then by state id, each
    /// state's in the order they are tried (StateManager::Transitions()).
    std::vector<TransitionRule> DescribeTransitions() const {
        std::vector<TransitionRule> list;
        auto add_state = [&](std::size_t s) {
            const bool is_any = s == any;
            const StateId from = is_any ? StateId{} : StateId{static_cast<StateIndex>(s)};
            std::size_t order = 0;
            for (const auto& chain : meta[s].chains)
                for (std::size_t i = 0; i < chain->count; ++i) {
                    TransitionRule rule;
                    rule.from = from;
                    rule.to = StateId{chain->targets[i].id};
                    rule.order = order++;
                    rule.forced = chain->forced[i] != 0;
                    rule.any = is_any;
                    const std::uint8_t kind = chain->kinds ? chain->kinds[i] : kKindChange;
                    if (kind == kKindWait) rule.kind = TransitionKind::WhenDone;
                    if (kind == kKindPush) rule.kind = TransitionKind::Push;
                    if (kind == kKindPop) {
                        rule.kind = TransitionKind::Pop;
                        rule.to = StateId{};
                    }
                    list.push_back(rule);
                }
            auto add_event = [&](StateIndex to, TransitionKind kind, const Event& event, std::size_t at) {
                TransitionRule rule;
                rule.from = from;
                rule.to = StateId{to};
                rule.kind = kind;
                rule.order = at;
                rule.event = event;
                list.push_back(rule);
            };
            for (std::size_t i = 0; i < meta[s].events.size(); ++i)
                add_event(meta[s].events[i].to, TransitionKind::Event, meta[s].events[i].event, i);
            for (std::size_t i = 0; i < meta[s].typed.size(); ++i)
                add_event(meta[s].typed[i].to, TransitionKind::Typed, meta[s].typed[i].event, i);
        };
        if (any != kNoState) add_state(any);
        for (std::size_t s = 0; s < meta.size(); ++s)
            if (s != any) add_state(s);
        return list;
    }

    /// Whether the state of type S is active while `leaf` is the current state:
    /// it is `leaf` or, nested, holds it.
    template <class S>
    bool IsIn(StateIndex leaf) const noexcept {
        if (leaf == kNoState) return false;
        if (keys[leaf] == TypeKey<S>()) return true;
        return nested && Within(leaf, Find(TypeKey<S>()));
    }

    /// The ticks `state` has been active while `leaf` is current (0 if it is not active).
    std::uint32_t TicksOf(StateIndex leaf, std::uint32_t leaf_ticks, StateIndex state, std::byte* data) const noexcept {
        if (state == leaf) return leaf_ticks;
        if (!Within(leaf, state)) return 0;
        return SlotOf(tree[state], data).ticks;
    }

    /// Whether `state` is `leaf` or one of its ancestors: active while `leaf` is.
    bool Within(StateIndex leaf, StateIndex state) const noexcept {
        if (leaf == state) return true;
        return nested && leaf != kNoState && IsWithin(tree, leaf, state);
    }

    /// The transition state `from` has for `event`, or null.
    const EventEdge* FindEvent(StateIndex from, const Event& event) const noexcept {
        for (const EventEdge& edge : meta[from].events)
            if (edge.event == event) return &edge;
        return nullptr;
    }

private:
    template <class S>
    static void EnterHook(TickContext<C, A>& ctx, std::uint32_t offset);
    template <class S>
    static void PerformHook(TickContext<C, A>& ctx, std::uint32_t offset);
    template <class S>
    static void ExitHook(TickContext<C, A>& ctx, std::uint32_t offset);
    template <class S>
    static void PauseHook(TickContext<C, A>& ctx, std::uint32_t offset);
    template <class S>
    static void ResumeHook(TickContext<C, A>& ctx, std::uint32_t offset);
};

} // namespace tickfsm::detail
