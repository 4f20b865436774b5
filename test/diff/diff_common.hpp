#pragma once
// Shared by the reference model and the driver of the random differential test:
// the controller and action every random machine uses, the description of a
// random machine (Config), and the test-side behaviour of its hooks, conditions
// and gates (pure functions of the controller, the action and the Config, so
// that the library and the model can call the same ones).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tickfsm_diff {

// --- State indices -------------------------------------------------------------
// 0..7 typed states S0..S7, 8..9 the global-state types G0, G1, 10..15 keyed
// states K0..K5, 16 the delegate state named by the tag type DTag.
inline constexpr int kTypedCount = 10;
inline constexpr int kEdgeTypes = 8;   // S0..S7: the typed states transitions may join
inline constexpr int kArgState = 7;    // S7 holds data and can be entered with an argument
inline constexpr int kGlobal0 = 8;
inline constexpr int kGlobal1 = 9;
inline constexpr int kKeyFirst = 10;
inline constexpr int kKeyCount = 6;
inline constexpr int kTagState = 16;
inline constexpr int kIndexCount = 17;
inline constexpr int kNone = -1;

inline constexpr std::array<std::string_view, kIndexCount> kStateNames{
    "S0", "S1", "S2", "S3", "S4", "S5", "S6", "S7", "G0", "G1", "K0", "K1", "K2", "K3", "K4", "K5", "DTag"};

/// The model index of a state name (what a gate's StateRef or a hook's handle
/// reports), kNone for an empty name, -2 for an unknown one.
inline int IndexOfName(std::string_view name) {
    if (name.empty()) return kNone;
    for (int i = 0; i < kIndexCount; ++i)
        if (kStateNames[static_cast<std::size_t>(i)] == name) return i;
    return -2;
}

// Events: E0..E3 (string literals) and two values of an enum.
inline constexpr int kEventCount = 6;
inline constexpr std::array<std::string_view, kEventCount> kEventNames{"E0", "E1", "E2", "E3", "Ev::A", "Ev::B"};

// --- What the hooks of each kind of state do -------------------------------------
enum class StateKind : std::uint8_t {
    Plain,        // OnStateEnter/Perform/OnStateExit without the Machine handle (fast path)
    PlainInit,    // Plain + OnStateInit
    Empty,        // no hooks, no data
    Scripted,     // hooks taking the Machine handle (may ask for changes) + OnStateInit
    GatedScripted,// Scripted + CanEnterState/CanExitState
    GatedPlain,   // Plain + gates
    Arg,          // data (an int built from an argument), Machine hooks, gates reading the data
    KState,       // keyed: AddState<KState>(key, id, gen): Machine hooks, OnStateInit, gates, data
    KPlain,       // keyed: AddState<KPlain>(key, id): plain hooks, data
    Delegate,     // AddDelegateState(key) / AddDelegateState<DTag>(): lambdas
};

struct StateInfo {
    StateKind kind = StateKind::Empty;
    bool machine_hooks = false; // its hooks take the Machine handle
    bool enter = false, perform = false, exit = false, init = false;
    bool gate_enter = false, gate_exit = false;
};

inline StateInfo InfoOfKind(StateKind kind) {
    StateInfo s;
    s.kind = kind;
    switch (kind) {
    case StateKind::Plain: s.enter = s.perform = s.exit = true; break;
    case StateKind::PlainInit: s.enter = s.perform = s.exit = s.init = true; break;
    case StateKind::Empty: break;
    case StateKind::Scripted: s.machine_hooks = s.enter = s.perform = s.exit = s.init = true; break;
    case StateKind::GatedScripted:
        s.machine_hooks = s.enter = s.perform = s.exit = s.init = true;
        s.gate_enter = s.gate_exit = true;
        break;
    case StateKind::GatedPlain: s.enter = s.perform = s.exit = s.gate_enter = s.gate_exit = true; break;
    case StateKind::Arg: s.machine_hooks = s.enter = s.perform = s.exit = s.gate_enter = s.gate_exit = true; break;
    case StateKind::KState:
        s.machine_hooks = s.enter = s.perform = s.exit = s.init = true;
        s.gate_enter = s.gate_exit = true;
        break;
    case StateKind::KPlain: s.enter = s.perform = s.exit = true; break;
    case StateKind::Delegate: s.machine_hooks = true; break; // hooks and gates set per Config
    }
    return s;
}

/// The typed states' kinds (must match the classes in driver.cpp).
inline constexpr std::array<StateKind, kTypedCount> kTypedKinds{
    StateKind::Plain,         StateKind::PlainInit,  StateKind::Empty, StateKind::Scripted, StateKind::Scripted,
    StateKind::GatedScripted, StateKind::GatedPlain, StateKind::Arg,   StateKind::Scripted, StateKind::Plain};

// --- The description of a random machine -----------------------------------------
enum class CondKind : std::uint8_t {
    CAT,     // captureless lambda (const Ctrl&, const Act&, float)
    CA,      // captureless lambda (const Ctrl&, const Act&)
    C,       // captureless lambda (const Ctrl&)
    None,    // captureless lambda ()  (always true)
    Fn,      // function pointer bool(*)(const Ctrl&, const Act&), one of four functions
    Capture, // capturing lambda (const Ctrl&, const Act&, float): private table
    Always,  // To<T>() without a condition
    Count
};
inline constexpr std::array<std::string_view, 7> kCondNames{"lambda(c,a,t)", "lambda(c,a)", "lambda(c)", "lambda()",
                                                            "fnptr",         "capture",     "always"};

struct Edge {
    int to = kNone;
    CondKind kind = CondKind::Always;
    bool forced = false;
    int param = 0;      // which function (Fn), the captured value (Capture)
    bool maker = false; // To<S7>(condition, make): builds S7 from the action
    int chain_pos = -1; // its position among the transitions of a fixed typed chain (Block::chain), else -1
};

enum class ItemKind : std::uint8_t { Event, Do, Edge };
struct Item {
    ItemKind kind = ItemKind::Event;
    int event = 0;
    int to = kNone;     // Event: target
    int action = 0;     // Do: X0, X1 (no arguments), X2 (with the argument `arg`)
    int arg = 0;
    Edge edge;          // Edge
};

struct Block {
    int state = kNone;
    bool initial = false;
    std::vector<Item> items;
    int chain = -1; // typed: one of the driver's fixed chains (one builder, several transitions), else -1
};

struct KeyedDecl {
    int index = kNone;              // kKeyFirst.. or kTagState
    StateKind kind = StateKind::KState;
    int gen = 0;                    // constructor argument (KState/KPlain)
    std::uint8_t hooks = 0;         // Delegate: 1 enter, 2 perform, 4 exit, 8 can_enter, 16 can_exit
};

/// Behaviour switches for features whose README decision the library may not
/// implement yet (all on: the generator reaches every case).
struct Features {
    bool global_before_start = true; // SetGlobalState before the first Perform is only recorded
    bool args_deferred = true;       // entering with arguments builds when the change applies; superseded builds nothing
    bool would_next = true;          // WouldTransition reports a waiting NextState request
    bool global_exit_error = true;   // a change asked from the global state's OnStateExit is a ConfigError
    bool global_self_arg = true;     // the global state asking to enter itself with arguments is a ConfigError
    bool crowd_previous = true;      // a Crowd honours KeepPreviousState()
    bool time_double = true;         // TimeInState() is ticks * fixed_dt computed exactly in double
    bool saturation = true;          // ticks set near 2^32-1 (detail::TicksAccess): TicksInState saturates
    bool static_machines = true;     // StaticStateManager and StaticCrowd are driven (off: only Configure(kTable))
};

/// A deliberately wrong reference, to check that the test can fail.
enum class Mutant : std::uint8_t { None, LastHolding, NoTickReset };

struct Config {
    std::uint64_t seed = 0;
    bool keyed = false;
    bool crowd_ok = true;           // every condition shareable, no keyed states, no actions with arguments
    float dt = 1.0f / 60.0f;
    bool keep_previous = false;
    int keep_at = 0;                // KeepPreviousState() is called before block keep_at
    int initial = kNone;
    std::vector<KeyedDecl> decls;   // keyed machines: registrations, before the blocks
    std::vector<Block> blocks;
    std::vector<int> globals;       // global-state types configured (From<G>() blocks)

    // Derived (Finish()):
    std::array<StateInfo, kIndexCount> info{};
    std::array<bool, kIndexCount> present{};
    std::vector<int> declared;      // declaration order
    std::vector<int> targets;       // states hooks and the driver may ask for

    // The script: what hooks, conditions and gates do.
    std::uint32_t req_permille = 0; // chance that a hook with the handle asks for something
    std::uint32_t err_permille = 0; // chance of a request that must be a ConfigError
    std::array<std::uint32_t, 4> cond_p{}; // CAT/CA/C thresholds (out of 16)
    float cond_time = 0.0f;
    std::array<std::uint32_t, kIndexCount> gate_enter{}; // bit (from+1): refuse unless the controller's flag allows
    std::array<std::uint32_t, kIndexCount> gate_exit{};  // bit (to+1)
    Features features;
    bool in_crowd = false;          // the script avoids what a Crowd cannot do

    void Finish();
    std::string Describe() const;
};

/// Which condition kinds a typed transition S -> T may use (so that the driver
/// instantiates a few per pair, not all): every kind is reached over the pairs.
constexpr bool EdgeKindAvailable(int s, int t, CondKind k, bool forced) {
    if (forced) return k == (((s + t) & 1) ? CondKind::Capture : CondKind::CAT);
    if (k == CondKind::Always) return true;
    return ((s + t + static_cast<int>(k)) % 2) == 0;
}

// --- Controller and action ----------------------------------------------------------
enum class HookKind : std::uint8_t { Init, Enter, Perform, Exit, AEnter, AUpdate, AExit, Request, Skip };

struct LogEntry {
    HookKind kind = HookKind::Init;
    std::int16_t self = 0;   // state (or the action's state)
    std::int16_t slot = -1;  // the action's position in its state's list
    std::int16_t cur = -3;   // the handle's current state (-3: no handle)
    std::uint32_t ticks = 0; // the handle's TicksInState
    std::int32_t extra = 0;  // state data, the action's type and argument, a request's details
    friend bool operator==(const LogEntry&, const LogEntry&) = default;
};
std::string Format(const LogEntry& e);

struct Ctrl {
    const Config* cfg = nullptr;
    std::vector<LogEntry>* log = nullptr;
    std::uint32_t flags = 0;  // set by the driver between ticks; gates and conditions read it
    std::uint64_t calls = 0;  // hook calls so far (drives the script)
    std::uint32_t looping = 0; // enter hooks that still re-enter their state (see RunHook)
};

struct Act {
    std::uint32_t bits = 0;
};

// --- Conditions and gates (pure) -------------------------------------------------------
inline bool CondCAT(const Ctrl& c, const Act& a, float t) {
    return ((a.bits >> 0) & 15u) < c.cfg->cond_p[0] || t >= c.cfg->cond_time;
}
inline bool CondCA(const Ctrl& c, const Act& a) { return ((a.bits >> 4) & 15u) < c.cfg->cond_p[1]; }
inline bool CondC(const Ctrl& c) { return ((c.flags >> 3) & 7u) < c.cfg->cond_p[2]; }
inline bool CondFn(int which, const Ctrl& c, const Act& a) {
    switch (which) {
    case 0: return ((a.bits >> 8) & 7u) == 0;
    case 1: return ((a.bits >> 11) & 3u) == 1 && (c.flags & 1u);
    case 2: return ((a.bits ^ c.flags) >> 13 & 7u) == 2;
    default: return ((a.bits >> 16) & 15u) < 3;
    }
}
inline bool CondCapture(int param, const Ctrl& c, const Act& a, float t) {
    const std::uint32_t shift = static_cast<std::uint32_t>(param) % 24u;
    return ((a.bits >> shift) & 7u) == (static_cast<std::uint32_t>(param) >> 5 & 7u) ||
           (t > static_cast<float>(param % 7) * 0.5f + 2.0f && (c.flags & 2u));
}
inline bool EvalCondition(const Edge& e, const Ctrl& c, const Act& a, float t) {
    switch (e.kind) {
    case CondKind::CAT: return CondCAT(c, a, t);
    case CondKind::CA: return CondCA(c, a);
    case CondKind::C: return CondC(c);
    case CondKind::None: return true;
    case CondKind::Fn: return CondFn(e.param & 3, c, a);
    case CondKind::Capture: return CondCapture(e.param, c, a, t);
    default: return true;
    }
}
/// What To<S7>(condition, make) builds S7 from.
inline int MakerArg(const Act& a) { return static_cast<int>((a.bits >> 20) & 0xFFu); }

/// Gates: `data` is the state's own data (S7's value, a keyed state's gen), or 0.
inline bool GateEnter(const Ctrl& c, int self, int from, int data) {
    if (self == kArgState && data % 5 == 4) return false;
    const std::uint32_t bit = 1u << static_cast<std::uint32_t>(from + 1);
    return !(c.cfg->gate_enter[static_cast<std::size_t>(self)] & bit) ||
           ((c.flags >> (static_cast<std::uint32_t>(self) % 8u + 8u)) & 1u);
}
inline bool GateExit(const Ctrl& c, int self, int to, int data) {
    if (self == kArgState && data % 7 == 6) return false;
    const std::uint32_t bit = 1u << static_cast<std::uint32_t>(to + 1);
    return !(c.cfg->gate_exit[static_cast<std::size_t>(self)] & bit) ||
           ((c.flags >> (static_cast<std::uint32_t>(self) % 8u + 16u)) & 1u);
}

// --- Hooks -------------------------------------------------------------------------------
enum class How : std::uint8_t { Try, TryReset, Force };

/// The machine as a hook sees it, for the library's handle and the model's.
class Handle {
public:
    virtual ~Handle() = default;
    virtual void SendEvent(int event) = 0;
    virtual void NextState(int to) = 0;
    virtual bool Set(int to, How how, std::optional<int> arg) = 0;
    virtual bool Revert(bool force) = 0;
    virtual std::uint32_t Ticks() const = 0;
    virtual int Current() const = 0;
};

enum class Op : std::uint8_t {
    None, Event, Next, Try, TryReset, Force, TryArg, TryResetArg, ForceArg, Revert, RevertForce,
    NextThenForce, ArgThenForce, BadTarget, Count
};
inline constexpr std::array<std::string_view, 14> kOpNames{
    "none",     "SendEvent",  "NextState", "TrySetState",   "TryResetState",  "ForceSetState", "TrySetState(arg)",
    "TryResetState(arg)", "ForceSetState(arg)", "Revert", "Revert(force)", "NextState+ForceSetState",
    "ForceSetState(arg)+ForceSetState", "NextState(not a state)"};

/// A hook's body: logs the call, then (hooks with the handle) maybe asks for
/// something, as the Config's script says. `global_hook`: a hook of the global state.
void RunHook(Ctrl& c, const Act& a, Handle* h, int self, HookKind kind, int slot, std::int32_t extra);

/// Thrown by the model where the library must throw tickfsm::ConfigError.
struct ModelConfigError {
    std::string what;
};

/// The state a hook asks for when asked for a type that is not a state of the
/// machine (Op::BadTarget): the handle throws for it.
inline constexpr int kBadTarget = 1000;

// --- Coverage: what the runs reached (counted by the model, which runs in step
// with the library as long as nothing diverges) -----------------------------------------
enum class Cov : std::uint8_t {
    ConditionFired, GateRefusedCondition, ForcedPastGate, SelfTransition, MakerBuilt, EventFromOutside,
    EventFromHook, EventUnhandled, NextStateApplied, NextAndImmediate, WouldReportsNext, ChainedChange,
    ArgBuiltAtChange, ArgSuperseded, DirectRefusedByGate, StartedByDirectChange, RevertApplied,
    RevertInCrowd, GlobalRecordedBeforeStart, GlobalEnteredAtStart, GlobalChangeFromEnter, GlobalPerformChange,
    InitRan, ResetWhileRunning, BufferEntered, BufferTimedOut, SequenceReplaced, ExitHookError,
    GlobalExitError, OwnArgError, GlobalSelfArgError, BadTargetError, RevertWithoutKeepError, ChainLimitError,
    KeyedTick, DelegateHook, ActionSkippedByChange, ArgStateGlobal, TicksSaturated, TypedChainLaterFired, Count
};
inline constexpr std::array<std::string_view, static_cast<std::size_t>(Cov::Count)> kCovNames{
    "condition fired", "gate refused a condition", "ForceTo past a gate", "self transition",
    "To(condition, make) built S7", "event from outside", "event from a hook", "event unhandled",
    "NextState applied", "NextState + immediate change in one hook", "WouldTransition reported NextState",
    "change asked by an enter hook", "argument built at the change", "argument request superseded",
    "direct change refused by a gate", "machine started by a direct change", "revert applied",
    "revert in a crowd", "global state recorded before start", "global state entered at start",
    "change asked by the global OnStateEnter", "change asked by the global Perform", "OnStateInit ran",
    "Reset of a running machine", "buffered request entered", "buffered request timed out",
    "sequence buffer replaced its oldest", "ConfigError: change from an exit hook",
    "ConfigError: change from the global OnStateExit", "ConfigError: own state with arguments",
    "ConfigError: global state's Perform enters itself with arguments", "ConfigError: not a state",
    "ConfigError: revert without KeepPreviousState", "ConfigError: more than 64 changes in a row",
    "tick of a keyed machine", "delegate state's hook", "rest of an action list skipped",
    "S7 (a state with data) set as the global state", "tick counted at 2^32-1 (saturated)",
    "a later transition of a fixed typed chain fired"};
using Coverage = std::array<std::uint64_t, static_cast<std::size_t>(Cov::Count)>;
inline thread_local Coverage g_coverage{};
inline void Cover(Cov c) { ++g_coverage[static_cast<std::size_t>(c)]; }

} // namespace tickfsm_diff
