#pragma once
// What a character holds and what a step receives: its Runtime (state, flags,
// ticks), a StateManager's Seat, the table's step words, and the small tools
// of the tick path (Assume, StateObject).

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <type_traits>

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

/// The controller and action types of a table and of the general path, which
/// are compiled once for every kind of machine: they only carry references to
/// the real objects. The typed code that made a hook, a condition or a step
/// (it knows the real types) casts them back with Real; nothing is read or
/// written through an AnyController or an AnyAction.
struct AnyController {};
struct AnyAction {};
/// True for the erased pair, the only one the table's types are made for.
template <class C, class A>
inline constexpr bool kErased = std::is_same_v<C, AnyController> && std::is_same_v<A, AnyAction>;

template <class C>
[[gnu::always_inline]] inline AnyController& EraseController(C& c) noexcept {
    return reinterpret_cast<AnyController&>(c);
}
template <class C>
[[gnu::always_inline]] inline const AnyController& EraseController(const C& c) noexcept {
    return reinterpret_cast<const AnyController&>(c);
}
template <class A>
[[gnu::always_inline]] inline const AnyAction& EraseAction(const A& a) noexcept {
    return reinterpret_cast<const AnyAction&>(a);
}
/// The real controller or action an erased reference was made from.
template <class C>
[[gnu::always_inline]] inline C& Real(AnyController& c) noexcept {
    return reinterpret_cast<C&>(c);
}
template <class C>
[[gnu::always_inline]] inline const C& Real(const AnyController& c) noexcept {
    return reinterpret_cast<const C&>(c);
}
template <class A>
[[gnu::always_inline]] inline const A& Real(const AnyAction& a) noexcept {
    return reinterpret_cast<const A&>(a);
}

using StateIndex = std::uint16_t;
inline constexpr StateIndex kNoState = 0xFFFF;

/// A crowd's TickAll gate (fast_count) while its common case does not hold:
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

/// Room for one more element, growing geometrically, so that adding elements
/// one at a time moves each one a bounded number of times on average.
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

/// Around the enter hooks of a nested change: if one throws, the unwinding
/// marks the character kSlow, since the state it leaves current may be a
/// composite, which only the general step serves (a crowd's step table holds
/// leaves). Set `entered` once the hooks ran; the compiler then knows the
/// destructor does nothing, so the change pays nothing for it.
struct SlowIfThrown {
    Runtime& rt;
    bool entered = false;
    ~SlowIfThrown() {
        if (!entered) rt.flags = static_cast<std::uint16_t>(rt.flags | kSlow);
    }
};

/// Gives `place` a value for a scope and puts back the one it had, even if a
/// hook throws: how a crowd's fast tick marks what runs (its `active` member) with a
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
    std::uint32_t seen = 0; // while `inside`: the state's ticks when last looked at; fewer later means re-entered
    bool inside = false;    // the machine has been in `state` since the request: it waits for it to be left
};

/// A state without data whose constructor and destructor do nothing: never
/// instantiated per character, one object serves all. A state whose
/// constructor or destructor has effects gets its own object per character, so
/// that they run when the character's data is made and destroyed.
template <class S>
inline constexpr bool kStateless =
    std::is_empty_v<S> && std::is_trivially_default_constructible_v<S> && std::is_trivially_destructible_v<S>;

template <class S>
inline S kEmptyState{};

template <class S>
[[gnu::always_inline]] inline S& StateObject(std::byte* data, std::uint32_t offset) noexcept {
    if constexpr (kStateless<S>) {
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
/// defined with StateManager's engine (detail/manager_engine.hpp).
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
    static_assert(kErased<C, A>, "tickfsm internal: a table's types are made for AnyController and AnyAction");
    StepFn<C, A> step = nullptr;
    BareStepFn<C, A> bare;
    MachineStepFn<C, A> machine;
    const Stepper<C, A>* const* selfs;
    float dt;
};
/// The steps of every table: the erased pair's (see AnyController).
using ErasedWord = StepWord<AnyController, AnyAction>;
inline constexpr std::ptrdiff_t kDtWord = -2;
inline constexpr std::ptrdiff_t kSelfsWord = -1;
inline constexpr std::size_t kStepHeaderWords = 2;

/// A crowd character's fast step: `data` (its state data) is passed where the
/// table has data (kHasData: its words hold `step`s), else the bare step runs
/// and `data` is not read.
template <bool kHasData, class C, class A>
[[gnu::always_inline]] inline void CallStep(const ErasedWord* steps, StateIndex state, C& c,
                                            const A& a, Runtime& rt, [[maybe_unused]] std::byte* data) {
    if constexpr (kHasData) steps[state].step(steps, EraseController(c), EraseAction(a), rt, data);
    else steps[state].bare(steps, EraseController(c), EraseAction(a), rt);
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
    static_assert(kErased<C, A>, "tickfsm internal: a table's types are made for AnyController and AnyAction");
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

// --- ticks and time in state ---------------------------------------------------

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
/// Whether `x` is finite and above zero (NaN is not).
constexpr bool PositiveFinite(float x) noexcept {
    return x > 0.0f && x <= std::numeric_limits<float>::max();
}
/// The ticks `seconds` lasts at `dt` seconds a tick (both positive and
/// finite), rounded up: at least 1, at most 2^32-1.
inline std::uint32_t TicksFor(float seconds, float dt) noexcept {
    const float ticks = seconds / dt;
    if (!(ticks < 4294967296.0f)) return UINT32_MAX;
    auto whole = static_cast<std::uint32_t>(ticks);
    if (static_cast<float>(whole) < ticks) ++whole; // below 2^24, where a float has a fraction
    return whole < 1u ? 1u : whole;
}

/// One more tick in state, saturating at 2^32-1 (about 2.2 years at 60 Hz)
/// instead of wrapping to 0; branch-free, as it is on every tick's path.
[[gnu::always_inline]] inline std::uint32_t CountTick(std::uint32_t& ticks) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    std::uint32_t next;
    const bool wrapped = __builtin_add_overflow(ticks, 1u, &next); // the carry of the add says it wrapped
    ticks = next - static_cast<std::uint32_t>(wrapped);
#else
    ticks += static_cast<std::uint32_t>(ticks != UINT32_MAX);
#endif
    return ticks;
}

/// a + b ticks, saturating at 2^32-1 as CountTick does.
[[gnu::always_inline]] inline std::uint32_t SumTicks(std::uint32_t a, std::uint32_t b) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    std::uint32_t sum;
    return __builtin_add_overflow(a, b, &sum) ? UINT32_MAX : sum;
#else
    return b > UINT32_MAX - a ? UINT32_MAX : a + b;
#endif
}

/// `pointer`, which the compiler may not take for any pointer it knew before:
/// what is read through it is read again, not merged with an earlier read or
/// an expression computed from one.
template <class T>
[[gnu::always_inline]] inline T* Opaque(T* pointer) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    asm volatile("" : "+r"(pointer)); // volatile: it stays on the path it is written on
#endif
    return pointer;
}

/// CountTick for a count that stays in memory (a character's Runtime), whose
/// new value a step reads only if one of its conditions reads the time: two
/// read-modify-write instructions instead of a load, the add, the borrow and a
/// store on the path of every tick; the compiler loads the value again only
/// where it is used. Elsewhere, and in instrumented builds, it is CountTick.
[[gnu::always_inline]] inline std::uint32_t CountTickInPlace(std::uint32_t& ticks) noexcept {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    asm("addl $1, %0\n\tsbbl $0, %0" : "+m"(ticks) : : "cc");
    return ticks;
#else
    return CountTick(ticks);
#endif
}

/// Tests only: a machine's (or a crowd character's) ticks in state, to set
/// without ticking 2^32 times. Each machine and crowd befriends it.
struct TicksAccess {
    template <class M>
    static std::uint32_t& Of(M& machine) noexcept {
        return machine.Ticks();
    }
    template <class C>
    static std::uint32_t& Of(C& crowd, std::size_t i) noexcept {
        return crowd.Ticks(i);
    }
};

} // namespace tickfsm::detail
