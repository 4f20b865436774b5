// The library side of the random differential test: the fixed pool of state,
// action and condition types, a random machine's configuration applied to a
// StateManager (or a Crowd, or compile-time machines), and the loop that drives
// the library and the reference model with the same calls and compares them.
#include "driver.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <tickfsm/static_machine.hpp>
#include <tickfsm/tickfsm.hpp>

#include "reference_model.hpp"

namespace tickfsm_diff {

namespace {

using M = tickfsm::Machine<Ctrl, Act>;
using Manager = tickfsm::StateManager<Ctrl, Act>;

enum class Key : std::uint8_t { K0, K1, K2, K3, K4, K5 };
enum class Ev : std::uint8_t { A, B };
struct DTag {};
struct NotAState {};

bool IsKey(int i) { return i >= kKeyFirst && i < kKeyFirst + kKeyCount; }
Key KeyOf(int i) { return static_cast<Key>(i - kKeyFirst); }

tickfsm::Event EventOf(int e) {
    switch (e) {
    case 0: return tickfsm::Event("E0");
    case 1: return tickfsm::Event("E1");
    case 2: return tickfsm::Event("E2");
    case 3: return tickfsm::Event("E3");
    case 4: return tickfsm::Event(Ev::A);
    default: return tickfsm::Event(Ev::B);
    }
}

// --- The pool of types ---------------------------------------------------------------
/// The hook's handle: the library's Machine, reached by the model's indices.
class LibHandle final : public Handle {
public:
    explicit LibHandle(M& m) : m_(m) {}
    void SendEvent(int event) override { m_.SendEvent(EventOf(event)); }
    void NextState(int to) override;
    bool Set(int to, How how, std::optional<int> arg) override;
    bool Revert(bool force) override { return m_.RevertToPreviousState(force); }
    std::uint32_t Ticks() const override { return m_.TicksInState(); }
    int Current() const override { return IndexOfName(m_.CurrentStateName()); }

private:
    M& m_;
};

template <int I>
struct PlainS {
    static constexpr std::string_view Name = kStateNames[I];
    void OnStateEnter(Ctrl& c, const Act& a) { RunHook(c, a, nullptr, I, HookKind::Enter, -1, 0); }
    void Perform(Ctrl& c, const Act& a) { RunHook(c, a, nullptr, I, HookKind::Perform, -1, 0); }
    void OnStateExit(Ctrl& c, const Act& a) { RunHook(c, a, nullptr, I, HookKind::Exit, -1, 0); }
};
template <int I>
struct PlainInitS {
    static constexpr std::string_view Name = kStateNames[I];
    void OnStateInit(Ctrl& c) { RunHook(c, Act{}, nullptr, I, HookKind::Init, -1, 0); }
    void OnStateEnter(Ctrl& c, const Act& a) { RunHook(c, a, nullptr, I, HookKind::Enter, -1, 0); }
    void Perform(Ctrl& c, const Act& a) { RunHook(c, a, nullptr, I, HookKind::Perform, -1, 0); }
    void OnStateExit(Ctrl& c, const Act& a) { RunHook(c, a, nullptr, I, HookKind::Exit, -1, 0); }
};
template <int I>
struct EmptyS {
    static constexpr std::string_view Name = kStateNames[I];
};
template <int I>
struct ScriptedS {
    static constexpr std::string_view Name = kStateNames[I];
    void OnStateInit(Ctrl& c) { RunHook(c, Act{}, nullptr, I, HookKind::Init, -1, 0); }
    void OnStateEnter(Ctrl& c, const Act& a, M& m) {
        LibHandle h(m);
        RunHook(c, a, &h, I, HookKind::Enter, -1, 0);
    }
    void Perform(Ctrl& c, const Act& a, M& m) {
        LibHandle h(m);
        RunHook(c, a, &h, I, HookKind::Perform, -1, 0);
    }
    void OnStateExit(Ctrl& c, const Act& a, M& m) {
        LibHandle h(m);
        RunHook(c, a, &h, I, HookKind::Exit, -1, 0);
    }
};
template <int I>
struct GatedScriptedS {
    static constexpr std::string_view Name = kStateNames[I];
    void OnStateInit(Ctrl& c) { RunHook(c, Act{}, nullptr, I, HookKind::Init, -1, 0); }
    void OnStateEnter(Ctrl& c, const Act& a, M& m) {
        LibHandle h(m);
        RunHook(c, a, &h, I, HookKind::Enter, -1, 0);
    }
    void Perform(Ctrl& c, const Act& a, M& m) {
        LibHandle h(m);
        RunHook(c, a, &h, I, HookKind::Perform, -1, 0);
    }
    void OnStateExit(Ctrl& c, const Act& a, M& m) {
        LibHandle h(m);
        RunHook(c, a, &h, I, HookKind::Exit, -1, 0);
    }
    bool CanEnterState(const Ctrl& c, const tickfsm::StateRef& from) const {
        return GateEnter(c, I, IndexOfName(from.Name()), 0);
    }
    bool CanExitState(const Ctrl& c, const tickfsm::StateRef& to) const {
        return GateExit(c, I, IndexOfName(to.Name()), 0);
    }
};
template <int I>
struct GatedPlainS {
    static constexpr std::string_view Name = kStateNames[I];
    void OnStateEnter(Ctrl& c, const Act& a) { RunHook(c, a, nullptr, I, HookKind::Enter, -1, 0); }
    void Perform(Ctrl& c, const Act& a) { RunHook(c, a, nullptr, I, HookKind::Perform, -1, 0); }
    void OnStateExit(Ctrl& c, const Act& a) { RunHook(c, a, nullptr, I, HookKind::Exit, -1, 0); }
    bool CanEnterState(const Ctrl& c, const tickfsm::StateRef& from) const {
        return GateEnter(c, I, IndexOfName(from.Name()), 0);
    }
    bool CanExitState(const Ctrl& c, const tickfsm::StateRef& to) const {
        return GateExit(c, I, IndexOfName(to.Name()), 0);
    }
};
/// S7: data built from an argument, logged by its hooks and read by its gates.
struct ArgS {
    static constexpr std::string_view Name = "S7";
    int value = 0;
    ArgS() = default;
    explicit ArgS(int v) : value(v) {}
    void OnStateEnter(Ctrl& c, const Act& a, M& m) {
        LibHandle h(m);
        RunHook(c, a, &h, kArgState, HookKind::Enter, -1, value);
    }
    void Perform(Ctrl& c, const Act& a, M& m) {
        LibHandle h(m);
        RunHook(c, a, &h, kArgState, HookKind::Perform, -1, value);
    }
    void OnStateExit(Ctrl& c, const Act& a, M& m) {
        LibHandle h(m);
        RunHook(c, a, &h, kArgState, HookKind::Exit, -1, value);
    }
    bool CanEnterState(const Ctrl& c, const tickfsm::StateRef& from) const {
        return GateEnter(c, kArgState, IndexOfName(from.Name()), value);
    }
    bool CanExitState(const Ctrl& c, const tickfsm::StateRef& to) const {
        return GateExit(c, kArgState, IndexOfName(to.Name()), value);
    }
};

template <int I>
struct StateAt;
template <> struct StateAt<0> { using type = PlainS<0>; };
template <> struct StateAt<1> { using type = PlainInitS<1>; };
template <> struct StateAt<2> { using type = EmptyS<2>; };
template <> struct StateAt<3> { using type = ScriptedS<3>; };
template <> struct StateAt<4> { using type = ScriptedS<4>; };
template <> struct StateAt<5> { using type = GatedScriptedS<5>; };
template <> struct StateAt<6> { using type = GatedPlainS<6>; };
template <> struct StateAt<7> { using type = ArgS; };
template <> struct StateAt<8> { using type = ScriptedS<8>; };
template <> struct StateAt<9> { using type = PlainS<9>; };
template <int I>
using StateT = typename StateAt<I>::type;

/// f.template operator()<I>() for the index i in [First, N): one compare per
/// index; an index outside is a logic error of the driver naming `what`.
template <int First, int N, class F>
decltype(auto) WithIndex(int i, F&& f, const char* what) {
    if constexpr (First + 1 < N) {
        if (i == First) return f.template operator()<First>();
        return WithIndex<First + 1, N>(i, f, what);
    } else {
        if (i != First) throw std::logic_error(fmt::format("tickfsm_diff: no {} {}", what, i));
        return f.template operator()<First>();
    }
}
/// The typed state indices (0..9).
template <class F>
decltype(auto) WithTypedIndex(int i, F&& f) {
    return WithIndex<0, 10>(i, f, "typed state");
}
/// The states transitions may join (0..7).
template <class F>
decltype(auto) WithEdgeIndex(int i, F&& f) {
    return WithIndex<0, 8>(i, f, "edge state");
}
/// f.template operator()<T>() for the typed state or tag of index i.
template <class F>
decltype(auto) WithTypedState(int i, F&& f) {
    if (i == kTagState) return f.template operator()<DTag>();
    return WithTypedIndex(i, [&]<int I>() -> decltype(auto) { return f.template operator()<StateT<I>>(); });
}

void LibHandle::NextState(int to) {
    if (to == kBadTarget) return m_.NextState<NotAState>();
    if (IsKey(to)) return m_.NextState(KeyOf(to));
    WithTypedState(to, [&]<class T>() { m_.template NextState<T>(); });
}

/// TrySetState, TryResetState or ForceSetState (with an argument or not) of
/// state `to` on `m`: a machine from outside, or a hook's Machine handle.
template <class M>
bool SetOn(M& m, int to, How how, std::optional<int> arg) {
    if (IsKey(to)) {
        switch (how) {
        case How::Try: return m.TrySetState(KeyOf(to));
        case How::TryReset: return m.TryResetState(KeyOf(to));
        case How::Force: m.ForceSetState(KeyOf(to)); return true;
        }
    }
    if (arg) {
        switch (how) {
        case How::Try: return m.template TrySetState<ArgS>(*arg);
        case How::TryReset: return m.template TryResetState<ArgS>(*arg);
        case How::Force: m.template ForceSetState<ArgS>(*arg); return true;
        }
    }
    return WithTypedState(to, [&]<class T>() {
        switch (how) {
        case How::Try: return m.template TrySetState<T>();
        case How::TryReset: return m.template TryResetState<T>();
        case How::Force: break;
        }
        m.template ForceSetState<T>();
        return true;
    });
}

bool LibHandle::Set(int to, How how, std::optional<int> arg) { return SetOn(m_, to, how, arg); }

// Actions: X0 (OnEnter/OnUpdate/OnExit with the handle), X1 (OnUpdate with the
// handle), X2(arg) (OnEnter/OnExit without it; arg = state * 16 + position).
struct X0 {
    static void Run(Ctrl& c, const Act& a, M& m, HookKind kind) {
        LibHandle h(m);
        RunHook(c, a, &h, h.Current(), kind, -1, 0);
    }
    void OnEnter(Ctrl& c, const Act& a, M& m) { Run(c, a, m, HookKind::AEnter); }
    void OnUpdate(Ctrl& c, const Act& a, M& m) { Run(c, a, m, HookKind::AUpdate); }
    void OnExit(Ctrl& c, const Act& a, M& m) { Run(c, a, m, HookKind::AExit); }
};
struct X1 {
    void OnUpdate(Ctrl& c, const Act& a, M& m) {
        LibHandle h(m);
        RunHook(c, a, &h, h.Current(), HookKind::AUpdate, -1, 1000);
    }
};
struct X2 {
    int arg;
    explicit X2(int a) : arg(a) {}
    void OnEnter(Ctrl& c, const Act& a) { RunHook(c, a, nullptr, arg / 16, HookKind::AEnter, arg % 16, 2000 + arg); }
    void OnExit(Ctrl& c, const Act& a) { RunHook(c, a, nullptr, arg / 16, HookKind::AExit, arg % 16, 2000 + arg); }
};

// Keyed states.
struct KState {
    int id = 0;
    int gen = 0;
    KState() = default;
    KState(int i, int g) : id(i), gen(g) {}
    void OnStateInit(Ctrl& c) { RunHook(c, Act{}, nullptr, id, HookKind::Init, -1, gen); }
    void OnStateEnter(Ctrl& c, const Act& a, M& m) {
        LibHandle h(m);
        RunHook(c, a, &h, id, HookKind::Enter, -1, gen);
    }
    void Perform(Ctrl& c, const Act& a, M& m) {
        LibHandle h(m);
        RunHook(c, a, &h, id, HookKind::Perform, -1, gen);
    }
    void OnStateExit(Ctrl& c, const Act& a, M& m) {
        LibHandle h(m);
        RunHook(c, a, &h, id, HookKind::Exit, -1, gen);
    }
    bool CanEnterState(const Ctrl& c, const tickfsm::StateRef& from) const {
        return GateEnter(c, id, IndexOfName(from.Name()), gen);
    }
    bool CanExitState(const Ctrl& c, const tickfsm::StateRef& to) const {
        return GateExit(c, id, IndexOfName(to.Name()), gen);
    }
};
struct KPlain {
    int id = 0;
    int gen = 0;
    KPlain() = default;
    KPlain(int i, int g) : id(i), gen(g) {}
    void OnStateEnter(Ctrl& c, const Act& a) { RunHook(c, a, nullptr, id, HookKind::Enter, -1, gen); }
    void Perform(Ctrl& c, const Act& a) { RunHook(c, a, nullptr, id, HookKind::Perform, -1, gen); }
    void OnStateExit(Ctrl& c, const Act& a) { RunHook(c, a, nullptr, id, HookKind::Exit, -1, gen); }
};

// Conditions.
constexpr auto kLamCAT = [](const Ctrl& c, const Act& a, float t) { return CondCAT(c, a, t); };
constexpr auto kLamCA = [](const Ctrl& c, const Act& a) { return CondCA(c, a); };
constexpr auto kLamC = [](const Ctrl& c) { return CondC(c); };
constexpr auto kLamNone = [] { return true; };
constexpr auto kMakeS7 = [](const Ctrl&, const Act& a) { return ArgS(MakerArg(a)); };
bool Fn0(const Ctrl& c, const Act& a) { return CondFn(0, c, a); }
bool Fn1(const Ctrl& c, const Act& a) { return CondFn(1, c, a); }
bool Fn2(const Ctrl& c, const Act& a) { return CondFn(2, c, a); }
bool Fn3(const Ctrl& c, const Act& a) { return CondFn(3, c, a); }
using FnPtr = bool (*)(const Ctrl&, const Act&);
FnPtr FnOf(int which) {
    switch (which & 3) {
    case 0: return &Fn0;
    case 1: return &Fn1;
    case 2: return &Fn2;
    default: return &Fn3;
    }
}
auto Capture(int param) {
    return [param](const Ctrl& c, const Act& a, float t) { return CondCapture(param, c, a, t); };
}

// --- Configuration ---------------------------------------------------------------------
template <int I, int J, class B>
void AddTypedEdgeKind(B&& b, const Edge& e) {
    using T = StateT<J>;
#define TICKFSM_DIFF_EDGE(KIND, FORCED, EXPR)                                                                     \
    if constexpr (EdgeKindAvailable(I, J, KIND, FORCED))                                                         \
        if (e.kind == KIND && e.forced == FORCED) {                                                               \
            (void)(EXPR);                                                                                         \
            return;                                                                                               \
        }
    TICKFSM_DIFF_EDGE(CondKind::CAT, false, std::move(b).template To<T>(kLamCAT))
    TICKFSM_DIFF_EDGE(CondKind::CA, false, std::move(b).template To<T>(kLamCA))
    TICKFSM_DIFF_EDGE(CondKind::C, false, std::move(b).template To<T>(kLamC))
    TICKFSM_DIFF_EDGE(CondKind::None, false, std::move(b).template To<T>(kLamNone))
    TICKFSM_DIFF_EDGE(CondKind::Fn, false, std::move(b).template To<T>(FnOf(e.param)))
    TICKFSM_DIFF_EDGE(CondKind::Capture, false, std::move(b).template To<T>(Capture(e.param)))
    TICKFSM_DIFF_EDGE(CondKind::Always, false, std::move(b).template To<T>())
    TICKFSM_DIFF_EDGE(CondKind::CAT, true, std::move(b).template ForceTo<T>(kLamCAT))
    TICKFSM_DIFF_EDGE(CondKind::Capture, true, std::move(b).template ForceTo<T>(Capture(e.param)))
#undef TICKFSM_DIFF_EDGE
    throw std::logic_error("tickfsm_diff: an edge kind the pair does not instantiate");
}

template <int I>
void ApplyTypedBlock(Manager& m, const Block& b) {
    using S = StateT<I>;
    auto builder = b.initial ? m.template SetInitialState<S>() : m.template From<S>();
    if constexpr (I < kEdgeTypes) {
        for (const Item& it : b.items) {
            switch (it.kind) {
            case ItemKind::Event:
                builder = WithEdgeIndex(it.to, [&]<int J>() {
                    return std::move(builder).On(EventOf(it.event)).template To<StateT<J>>();
                });
                break;
            case ItemKind::Do:
                if (it.action == 0) builder = std::move(builder).template Do<X0>();
                else if (it.action == 1) builder = std::move(builder).template Do<X1>();
                else builder = std::move(builder).template Do<X2>(it.arg);
                break;
            case ItemKind::Edge:
                WithEdgeIndex(it.edge.to, [&]<int J>() {
                    if (it.edge.maker) {
                        if constexpr (J == kArgState) {
                            (void)std::move(builder).template To<ArgS>(kLamCA, kMakeS7);
                            return;
                        }
                        throw std::logic_error("tickfsm_diff: a maker edge to a state other than S7");
                    }
                    AddTypedEdgeKind<I, J>(std::move(builder), it.edge);
                });
                return; // an edge is a block's last item
            }
        }
    } else {
        if (!b.items.empty()) throw std::logic_error("tickfsm_diff: items on a global state");
    }
}

/// One of the fixed typed chains (RandomChain describes them): one From<S>()
/// builder with several transitions, the way users write them, so that the
/// library compiles them into one step. Only the conditions' parameters and the
/// event come from the Config; the types are fixed (a few instantiations).
void ApplyChain(Manager& m, const Block& b) {
    const auto edge = [&](std::size_t i) -> const Edge& {
        if (i >= b.items.size() || b.items[i].kind != ItemKind::Edge || b.items[i].edge.chain_pos < 0)
            throw std::logic_error("tickfsm_diff: a fixed chain's items do not match its shape");
        return b.items[i].edge;
    };
    switch (b.chain) {
    case 0:
        (void)edge(0), (void)edge(2);
        (void)m.From<StateT<3>>().To<StateT<0>>(kLamCA).To<StateT<5>>(FnOf(edge(1).param)).To<StateT<1>>();
        return;
    case 1: {
        auto builder = m.From<StateT<5>>().To<StateT<6>>(Capture(edge(0).param));
        std::size_t next = 1;
        if (b.items.size() > 1 && b.items[1].kind == ItemKind::Event) {
            builder = std::move(builder).On(EventOf(b.items[1].event)).To<StateT<2>>();
            next = 2;
        }
        (void)edge(next), (void)edge(next + 1);
        (void)std::move(builder).ForceTo<StateT<4>>(kLamCAT).To<StateT<5>>(kLamC);
        return;
    }
    case 2:
        (void)edge(1);
        (void)m.From<StateT<6>>().ForceTo<StateT<3>>(Capture(edge(0).param)).To<StateT<0>>(kLamCAT);
        return;
    default: throw std::logic_error("tickfsm_diff: no fixed chain " + std::to_string(b.chain));
    }
}

tickfsm::KeyedTransitionBuilder<Ctrl, Act> AddKeyedEdge(tickfsm::KeyedTransitionBuilder<Ctrl, Act>&& b,
                                                        const Edge& e) {
    const Key k = KeyOf(e.to);
    auto add = [&](auto&& condition) {
        return e.forced ? std::move(b).ForceTo(k, condition) : std::move(b).To(k, condition);
    };
    switch (e.kind) {
    case CondKind::CAT: return add(kLamCAT);
    case CondKind::CA: return add(kLamCA);
    case CondKind::C: return add(kLamC);
    case CondKind::None: return add(kLamNone);
    case CondKind::Fn: return add(FnOf(e.param));
    case CondKind::Capture: return add(Capture(e.param));
    default: return std::move(b).To(k);
    }
}

void ApplyKeyedBlock(Manager& m, const Block& b) {
    auto builder = b.initial ? m.SetInitialState(KeyOf(b.state)) : m.From(KeyOf(b.state));
    for (const Item& it : b.items) {
        switch (it.kind) {
        case ItemKind::Event: builder = std::move(builder).On(EventOf(it.event)).To(KeyOf(it.to)); break;
        case ItemKind::Do:
            if (it.action == 0) builder = std::move(builder).Do<X0>();
            else if (it.action == 1) builder = std::move(builder).Do<X1>();
            else builder = std::move(builder).Do<X2>(it.arg);
            break;
        case ItemKind::Edge: builder = AddKeyedEdge(std::move(builder), it.edge); break;
        }
    }
}

void AddDelegate(Manager& machine, const KeyedDecl& d) {
    auto b = d.index == kTagState ? machine.AddDelegateState<DTag>() : machine.AddDelegateState(KeyOf(d.index));
    const int idx = d.index;
    if (d.hooks & 1)
        b.OnEnter([idx](Ctrl& c, const Act& a, M& m) {
            LibHandle h(m);
            RunHook(c, a, &h, idx, HookKind::Enter, -1, 0);
        });
    if (d.hooks & 2)
        b.Perform([idx](Ctrl& c, const Act& a, M& m) {
            LibHandle h(m);
            RunHook(c, a, &h, idx, HookKind::Perform, -1, 0);
        });
    if (d.hooks & 4)
        b.OnExit([idx](Ctrl& c, const Act& a, M& m) {
            LibHandle h(m);
            RunHook(c, a, &h, idx, HookKind::Exit, -1, 0);
        });
    if (d.hooks & 8)
        b.CanEnter([idx](const Ctrl& c, const tickfsm::StateRef& from) {
            return GateEnter(c, idx, IndexOfName(from.Name()), 0);
        });
    if (d.hooks & 16)
        b.CanExit([idx](const Ctrl& c, const tickfsm::StateRef& to) {
            return GateExit(c, idx, IndexOfName(to.Name()), 0);
        });
}

// The compile-time machines (their equivalent Configs are StaticConfig below).
constexpr auto kStaticA = tickfsm::Transitions<Ctrl, Act>()
                              .SetInitialState<StateT<0>>()
                              .To<StateT<1>>(kLamCA)
                              .To<StateT<2>>(kLamC)
                              .From<StateT<1>>()
                              .To<StateT<0>>(kLamCAT)
                              .To<StateT<1>>(kLamCA)
                              .From<StateT<2>>()
                              .To<StateT<0>>();
constexpr auto kStaticB = tickfsm::Transitions<Ctrl, Act>()
                              .SetInitialState<StateT<2>>()
                              .To<StateT<0>>(kLamCAT)
                              .From<StateT<0>>()
                              .To<StateT<2>>(kLamCA)
                              .To<StateT<1>>(kLamNone)
                              .From<StateT<1>>()
                              .To<StateT<1>>(kLamC)
                              .To<StateT<0>>(kLamCAT);

void ApplyConfig(Manager& m, const Config& cfg, int static_table) {
    if (static_table == 0) return m.Configure(kStaticA);
    if (static_table == 1) return m.Configure(kStaticB);
    for (const KeyedDecl& d : cfg.decls) {
        switch (d.kind) {
        case StateKind::KState: m.AddState<KState>(KeyOf(d.index), d.index, d.gen); break;
        case StateKind::KPlain: m.AddState<KPlain>(KeyOf(d.index), d.index, d.gen); break;
        default: AddDelegate(m, d); break;
        }
    }
    for (std::size_t bi = 0; bi < cfg.blocks.size(); ++bi) {
        if (cfg.keep_previous && static_cast<int>(bi) == cfg.keep_at) m.KeepPreviousState();
        const Block& b = cfg.blocks[bi];
        if (IsKey(b.state)) ApplyKeyedBlock(m, b);
        else if (b.chain >= 0) ApplyChain(m, b);
        else WithTypedIndex(b.state, [&]<int I>() { ApplyTypedBlock<I>(m, b); });
    }
    if (cfg.keep_previous && cfg.keep_at >= static_cast<int>(cfg.blocks.size())) m.KeepPreviousState();
}

class DiffManager : public Manager {
public:
    DiffManager(Ctrl& c, const Config& cfg, int static_table = -1) : Manager(c, cfg.dt) {
        ApplyConfig(*this, cfg, static_table);
    }
};

// --- Random configurations ---------------------------------------------------------------
class Rng {
public:
    explicit Rng(std::uint64_t seed) : s_(seed * 0x9E3779B97F4A7C15ull + 0x1234567ull) {}
    std::uint64_t Next() {
        std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    int Below(int n) { return static_cast<int>(Next() % static_cast<std::uint64_t>(n)); }
    bool Chance(int percent) { return Below(100) < percent; }
    std::uint32_t Bits() { return static_cast<std::uint32_t>(Next()); }
    template <class T>
    const T& Pick(const std::vector<T>& v) {
        return v[static_cast<std::size_t>(Below(static_cast<int>(v.size())))];
    }

private:
    std::uint64_t s_;
};

/// The order of a machine's configuration blocks: each of `states` once, plus
/// below `extra_bound` more picked among them, shuffled.
std::vector<int> BlockOrder(Rng& g, const std::vector<int>& states, int extra_bound) {
    std::vector<int> order = states;
    const int extra = g.Below(extra_bound);
    for (int i = 0; i < extra; ++i) order.push_back(g.Pick(states));
    for (std::size_t i = order.size(); i > 1; --i)
        std::swap(order[i - 1], order[static_cast<std::size_t>(g.Below(static_cast<int>(i)))]);
    return order;
}

void RandomScript(Config& cfg, Rng& g) {
    static constexpr std::uint32_t kReq[] = {0, 60, 150, 300};
    cfg.req_permille = kReq[g.Below(4)];
    cfg.err_permille = g.Chance(70) ? 0 : static_cast<std::uint32_t>(1 + g.Below(3));
    for (auto& p : cfg.cond_p) p = static_cast<std::uint32_t>(g.Below(9));
    cfg.cond_time = static_cast<float>(g.Below(40)) * 0.25f + 0.1f;
    for (int s = 0; s < kIndexCount; ++s) {
        cfg.gate_enter[static_cast<std::size_t>(s)] = g.Chance(60) ? g.Bits() & g.Bits() : 0;
        cfg.gate_exit[static_cast<std::size_t>(s)] = g.Chance(60) ? g.Bits() & g.Bits() : 0;
    }
}

float RandomDt(Rng& g) {
    static constexpr float kDts[] = {1.0f / 60.0f, 1.0f / 30.0f, 0.1f, 0.25f, 0.5f, 0.05f};
    return kDts[g.Below(6)];
}

Edge RandomTypedEdge(Rng& g, int s, const std::vector<int>& chosen, bool crowd) {
    for (;;) {
        Edge e;
        e.to = g.Pick(chosen);
        if (e.to == kArgState && g.Chance(20)) {
            e.maker = true;
            e.kind = CondKind::CA;
            return e;
        }
        e.forced = g.Chance(15);
        e.kind = static_cast<CondKind>(g.Below(static_cast<int>(CondKind::Count)));
        if (!EdgeKindAvailable(s, e.to, e.kind, e.forced)) continue;
        if (crowd && e.kind == CondKind::Capture) continue;
        e.param = g.Below(200);
        return e;
    }
}

/// The fixed typed chains ApplyChain configures, as the model reads them (same
/// transitions, same order): shape 0 shares its table (a Crowd may take it);
/// 1 (with ForceTo and an On(event).To<S2>() between its transitions) and 2
/// capture data. Their conditions are decided by the script and `param`.
constexpr int kChainShapes = 3;
constexpr std::array<int, kChainShapes> kChainSource{3, 5, 6};

Block RandomChain(Rng& g, int shape, std::uint32_t& used_events) {
    Block b;
    b.state = kChainSource[static_cast<std::size_t>(shape)];
    b.chain = shape;
    int pos = 0;
    auto edge = [&](int to, CondKind kind, bool forced) {
        Item it;
        it.kind = ItemKind::Edge;
        it.edge.to = to;
        it.edge.kind = kind;
        it.edge.forced = forced;
        it.edge.param = g.Below(200);
        it.edge.chain_pos = pos++;
        b.items.push_back(it);
    };
    switch (shape) {
    case 0:
        edge(0, CondKind::CA, false);
        edge(5, CondKind::Fn, false);
        edge(1, CondKind::Always, false);
        break;
    case 1: {
        edge(6, CondKind::Capture, false);
        const int first = g.Below(kEventCount);
        for (int k = 0; k < kEventCount; ++k) { // an event S5 has no transition on yet, if any
            const int e = (first + k) % kEventCount;
            if (used_events & (1u << e)) continue;
            used_events |= 1u << e;
            Item it;
            it.kind = ItemKind::Event;
            it.event = e;
            it.to = 2;
            b.items.push_back(it);
            break;
        }
        edge(4, CondKind::CAT, true);
        edge(5, CondKind::C, false);
        break;
    }
    default:
        edge(3, CondKind::Capture, true);
        edge(0, CondKind::CAT, false);
        break;
    }
    return b;
}

Config GenerateTyped(std::uint64_t seed, Rng& g, const Features& f, bool crowd) {
    Config cfg;
    cfg.seed = seed;
    cfg.features = f;
    cfg.in_crowd = crowd;
    cfg.dt = RandomDt(g);
    cfg.keep_previous = g.Chance(40) && (!crowd || f.crowd_previous);
    // A crowd whose states all tick on the fast path (plain and empty states, no
    // actions) reaches its unchecked and grouped loops.
    const bool fast_only = crowd && g.Chance(25);
    std::vector<int> pool = fast_only ? std::vector<int>{0, 1, 2} : std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7};
    for (std::size_t i = pool.size(); i > 1; --i)
        std::swap(pool[i - 1], pool[static_cast<std::size_t>(g.Below(static_cast<int>(i)))]);
    const int n = fast_only ? 2 + g.Below(2) : 2 + g.Below(5);
    std::vector<int> chosen(pool.begin(), pool.begin() + n);
    cfg.initial = chosen[0];
    // One block per chosen state, a few more, in random order; each state's events distinct.
    const std::vector<int> order = BlockOrder(g, chosen, n + 2);
    std::array<std::uint32_t, kIndexCount> used_events{};
    std::array<int, kIndexCount> action_count{};
    bool initial_done = false;
    for (int s : order) {
        Block b;
        b.state = s;
        if (s == cfg.initial && !initial_done) {
            b.initial = true;
            initial_done = true;
        }
        const int items = g.Below(4);
        for (int k = 0; k < items; ++k) {
            Item it;
            if (g.Chance(55)) {
                const int e = g.Below(kEventCount);
                if (used_events[static_cast<std::size_t>(s)] & (1u << e)) continue;
                used_events[static_cast<std::size_t>(s)] |= 1u << e;
                it.kind = ItemKind::Event;
                it.event = e;
                it.to = g.Pick(chosen);
            } else if (!fast_only) {
                it.kind = ItemKind::Do;
                it.action = g.Below(crowd ? 2 : 3);
                it.arg = s * 16 + action_count[static_cast<std::size_t>(s)]++;
            } else {
                continue;
            }
            b.items.push_back(it);
        }
        if (g.Chance(75)) {
            Item it;
            it.kind = ItemKind::Edge;
            it.edge = RandomTypedEdge(g, s, chosen, crowd);
            b.items.push_back(it);
        }
        cfg.blocks.push_back(std::move(b));
    }
    if (!crowd && g.Chance(40)) {
        const int which = g.Below(4);
        if (which != 1) cfg.globals.push_back(kGlobal0);
        if (which != 0) cfg.globals.push_back(kGlobal1);
        // The state with arguments as a global (its Perform may enter itself with
        // arguments: a ConfigError) in half of these machines, so that even the
        // sanitizer build's budget reaches that path.
        if (which >= 2 &&
            std::find(chosen.begin(), chosen.end(), kArgState) == chosen.end() && f.global_self_arg)
            cfg.globals.push_back(kArgState);
        for (int gl : cfg.globals) {
            Block b;
            b.state = gl;
            const auto at = cfg.blocks.begin() + g.Below(static_cast<int>(cfg.blocks.size()) + 1);
            cfg.blocks.insert(at, std::move(b));
        }
    }
    cfg.keep_at = g.Below(static_cast<int>(cfg.blocks.size()) + 1);
    RandomScript(cfg, g);
    // Drawn last, so that the rest of the machine is the one it was without.
    if (!fast_only && g.Chance(35)) {
        const int shape = crowd ? 0 : g.Below(kChainShapes);
        const auto source = static_cast<std::size_t>(kChainSource[static_cast<std::size_t>(shape)]);
        Block b = RandomChain(g, shape, used_events[source]);
        cfg.blocks.insert(cfg.blocks.begin() + g.Below(static_cast<int>(cfg.blocks.size()) + 1), std::move(b));
    }
    cfg.Finish();
    return cfg;
}

Config GenerateKeyed(std::uint64_t seed, Rng& g, const Features& f) {
    Config cfg;
    cfg.seed = seed;
    cfg.features = f;
    cfg.keyed = true;
    cfg.dt = RandomDt(g);
    cfg.keep_previous = g.Chance(40);
    const int n = 2 + g.Below(kKeyCount - 1);
    std::vector<int> keys;
    for (int i = 0; i < kKeyCount; ++i) keys.push_back(kKeyFirst + i);
    for (std::size_t i = keys.size(); i > 1; --i)
        std::swap(keys[i - 1], keys[static_cast<std::size_t>(g.Below(static_cast<int>(i)))]);
    keys.resize(static_cast<std::size_t>(n));
    for (int k : keys) {
        KeyedDecl d;
        d.index = k;
        const int kind = g.Below(10);
        d.kind = kind < 4 ? StateKind::KState : kind < 7 ? StateKind::KPlain : StateKind::Delegate;
        d.gen = g.Below(100);
        d.hooks = static_cast<std::uint8_t>(g.Below(32));
        cfg.decls.push_back(d);
    }
    if (g.Chance(30)) {
        KeyedDecl d;
        d.index = kTagState;
        d.kind = StateKind::Delegate;
        d.hooks = static_cast<std::uint8_t>(g.Below(32) | 2);
        cfg.decls.push_back(d);
    }
    cfg.initial = keys[0];
    const std::vector<int> order = BlockOrder(g, keys, n);
    std::array<std::uint32_t, kIndexCount> used_events{};
    std::array<int, kIndexCount> action_count{};
    bool initial_done = false;
    for (int s : order) {
        Block b;
        b.state = s;
        if (s == cfg.initial && !initial_done) {
            b.initial = true;
            initial_done = true;
        }
        const int items = g.Below(6);
        for (int k = 0; k < items; ++k) {
            Item it;
            const int what = g.Below(10);
            if (what < 3) {
                const int e = g.Below(kEventCount);
                if (used_events[static_cast<std::size_t>(s)] & (1u << e)) continue;
                used_events[static_cast<std::size_t>(s)] |= 1u << e;
                it.kind = ItemKind::Event;
                it.event = e;
                it.to = g.Pick(keys);
            } else if (what < 5) {
                it.kind = ItemKind::Do;
                it.action = g.Below(3);
                it.arg = s * 16 + action_count[static_cast<std::size_t>(s)]++;
            } else {
                it.kind = ItemKind::Edge;
                it.edge.to = g.Pick(keys);
                it.edge.kind = static_cast<CondKind>(g.Below(static_cast<int>(CondKind::Count)));
                it.edge.forced = it.edge.kind != CondKind::Always && g.Chance(20);
                it.edge.param = g.Below(200);
            }
            b.items.push_back(it);
        }
        cfg.blocks.push_back(std::move(b));
    }
    if (g.Chance(30)) {
        cfg.globals.push_back(g.Chance(50) ? kGlobal0 : kGlobal1);
        Block b;
        b.state = cfg.globals[0];
        const auto at = cfg.blocks.begin() + g.Below(static_cast<int>(cfg.blocks.size()) + 1);
        cfg.blocks.insert(at, std::move(b));
    }
    cfg.keep_at = g.Below(static_cast<int>(cfg.blocks.size()) + 1);
    RandomScript(cfg, g);
    cfg.Finish();
    return cfg;
}

/// The Config a compile-time machine's constant says (kStaticA, kStaticB).
Config StaticConfig(std::uint64_t seed, Rng& g, int which, const Features& f) {
    Config cfg;
    cfg.seed = seed;
    cfg.features = f;
    cfg.in_crowd = true;
    cfg.dt = RandomDt(g);
    auto edge = [](int to, CondKind kind) {
        Item it;
        it.kind = ItemKind::Edge;
        it.edge.to = to;
        it.edge.kind = kind;
        return it;
    };
    if (which == 0) {
        cfg.initial = 0;
        cfg.blocks.push_back({0, true, {edge(1, CondKind::CA), edge(2, CondKind::C)}});
        cfg.blocks.push_back({1, false, {edge(0, CondKind::CAT), edge(1, CondKind::CA)}});
        cfg.blocks.push_back({2, false, {edge(0, CondKind::Always)}});
    } else {
        cfg.initial = 2;
        cfg.blocks.push_back({2, true, {edge(0, CondKind::CAT)}});
        cfg.blocks.push_back({0, false, {edge(2, CondKind::CA), edge(1, CondKind::None)}});
        cfg.blocks.push_back({1, false, {edge(1, CondKind::C), edge(0, CondKind::CAT)}});
    }
    RandomScript(cfg, g);
    cfg.Finish();
    return cfg;
}

// --- Comparing ----------------------------------------------------------------------------
std::string Tail(const std::vector<LogEntry>& log, std::size_t from, std::size_t count) {
    std::string out;
    const std::size_t first = from > count ? from - count : 0;
    for (std::size_t i = first; i < log.size() && i < from + 3; ++i)
        out += fmt::format("      {}{}\n", i == from ? "> " : "  ", Format(log[i]));
    return out;
}

std::string Name(int i) {
    if (i == kNone) return "(none)";
    if (i >= 0 && i < kIndexCount) return std::string(kStateNames[static_cast<std::size_t>(i)]);
    return fmt::format("#{}", i);
}

/// What one run records, and how it reports a divergence.
class Session {
public:
    Session(const Config& cfg, const RunOptions& opt, RunResult& result) : cfg_(cfg), opt_(opt), result_(result) {}

    void Call(std::string text) { trace_.push_back(std::move(text)); }

    /// Both logs so far must be equal; then they are dropped.
    bool SameLogs(std::vector<LogEntry>& lib, std::vector<LogEntry>& model, std::string_view who) {
        const std::size_t n = std::min(lib.size(), model.size());
        std::size_t i = 0;
        while (i < n && lib[i] == model[i]) ++i;
        if (i == n && lib.size() == model.size()) {
            lib.clear();
            model.clear();
            return true;
        }
        return Diverge(fmt::format("{}hook log differs at entry {} of this call:\n    library:\n{}    model:\n{}",
                                   who, i, Tail(lib, i, 6), Tail(model, i, 6)));
    }

    template <class T>
    bool Same(std::string_view what, const T& lib, const T& model) {
        if (lib == model) return true;
        return Diverge(fmt::format("{}: library {}, model {}", what, lib, model));
    }
    bool SameState(std::string_view what, int lib, int model) {
        if (lib == model) return true;
        return Diverge(fmt::format("{}: library {}, model {}", what, Name(lib), Name(model)));
    }

    bool Diverge(std::string what) {
        result_.diverged = true;
        std::string out = fmt::format("DIVERGENCE (seed {}, form {}): {}\n", cfg_.seed, result_.form, what);
        out += cfg_.Describe();
        const std::size_t shown = opt_.verbose ? trace_.size() : std::min<std::size_t>(trace_.size(), 40);
        out += fmt::format("  calls ({} in all{}):\n", trace_.size(),
                           shown < trace_.size() ? fmt::format(", the last {}", shown) : std::string());
        for (std::size_t i = trace_.size() - shown; i < trace_.size(); ++i)
            out += fmt::format("    {:5} {}\n", i, trace_[i]);
        out += fmt::format("  reproduce: tickfsm_fuzz --seed {} --verbose{}\n", cfg_.seed, ExtraArguments());
        result_.report = std::move(out);
        return false;
    }

    std::vector<std::string>& Trace() { return trace_; }

    /// The options that differ from tickfsm_fuzz's defaults, as its arguments.
    std::string ExtraArguments() const {
        std::string out;
        static constexpr std::string_view kForms[] = {"", "manager", "crowd", "static"};
        if (opt_.form != Form::Auto) out += fmt::format(" --form {}", kForms[static_cast<int>(opt_.form)]);
        if (opt_.max_ticks != RunOptions{}.max_ticks) out += fmt::format(" --ticks {}", opt_.max_ticks);
        if (opt_.mutant != Mutant::None) out += opt_.mutant == Mutant::LastHolding ? " --mutant last" : " --mutant noreset";
        const Features& f = opt_.features;
        std::string off;
        auto add = [&](bool on, std::string_view name) {
            if (!on) off += fmt::format("{}{}", off.empty() ? "" : ",", name);
        };
        add(f.global_before_start, "global_before_start");
        add(f.args_deferred, "args_deferred");
        add(f.would_next, "would_next");
        add(f.global_exit_error, "global_exit_error");
        add(f.global_self_arg, "global_self_arg");
        add(f.crowd_previous, "crowd_previous");
        add(f.time_double, "time_double");
        add(f.saturation, "saturation");
        add(f.static_machines, "static_machines");
        if (!off.empty()) out += " --off " + off;
        return out;
    }

private:
    const Config& cfg_;
    const RunOptions& opt_;
    RunResult& result_;
    std::vector<std::string> trace_;
};

/// Runs `lib` and `model` (each may throw its ConfigError); false ends the run.
template <class L, class Mo>
bool Both(Session& s, RunResult& r, L&& lib, Mo&& model) {
    bool lib_threw = false;
    bool model_threw = false;
    std::string lib_what, model_what;
    try {
        lib();
    } catch (const tickfsm::ConfigError& e) {
        lib_threw = true;
        lib_what = e.what();
    } catch (const std::exception& e) {
        return s.Diverge(fmt::format("the library threw {}", e.what()));
    }
    try {
        model();
    } catch (const ModelConfigError& e) {
        model_threw = true;
        model_what = e.what;
    }
    if (lib_threw != model_threw)
        return s.Diverge(lib_threw ? fmt::format("the library threw ConfigError ({}), the model did not", lib_what)
                                   : fmt::format("the model expects a ConfigError ({}), the library threw none",
                                                 model_what));
    if (lib_threw) {
        s.Call(fmt::format("(both threw ConfigError: {})", model_what));
        r.ended_by_config_error = true;
    }
    return true;
}

Act RandomAct(Rng& g) { return Act{g.Bits()}; }

std::string ActText(const Act& a) { return fmt::format("bits=0x{:08x}", a.bits); }

float RandomTimeout(Rng& g) {
    static constexpr float kTimeouts[] = {0.01f, 0.05f, 0.1f, 0.3f, 1.0f};
    return kTimeouts[g.Below(5)];
}

/// Sets a machine's (or a crowd character's) ticks through the library's test
/// hook, to reach TicksInState's saturation at 2^32-1 in a few ticks.
template <class... L>
void SetLibraryTicks(std::uint32_t ticks, L&... lib) {
#ifndef TICKFSM_DIFF_NO_TICKS_ACCESS
    tickfsm::detail::TicksAccess::Of(lib...) = ticks;
#else
    (void)ticks;
    ((void)lib, ...);
#endif
}
#ifndef TICKFSM_DIFF_NO_TICKS_ACCESS
constexpr bool kTicksAccess = true;
#else
constexpr bool kTicksAccess = false;
#endif

// --- A StateManager ------------------------------------------------------------------------
class ManagerRun {
public:
    ManagerRun(const Config& cfg, const RunOptions& opt, std::uint64_t seed, RunResult& r, int static_table)
        : cfg_(cfg), opt_(opt), r_(r), s_(cfg, opt, r), g_(seed ^ 0x5EEDull), static_table_(static_table) {}

    void Go() {
        lib_ctrl_ = Ctrl{&cfg_, &lib_log_, 0, 0, 0};
        model_ctrl_ = Ctrl{&cfg_, &model_log_, 0, 0, 0};
        std::unique_ptr<DiffManager> lib;
        try {
            lib = std::make_unique<DiffManager>(lib_ctrl_, cfg_, static_table_);
        } catch (const std::exception& e) {
            s_.Diverge(fmt::format("configuring the StateManager threw: {}", e.what()));
            return;
        }
        Model model(cfg_, model_ctrl_, opt_.mutant);
        tickfsm::InputBuffer<Ctrl, Act> buffer(*lib);
        tickfsm::InputSequenceBuffer<Ctrl, Act, Model::kSeqCapacity> sequence(*lib);
        lib_ = lib.get();
        model_ = &model;
        r_.shares_table = lib->SharesTable() ? 1 : 0;
        // README: a condition that holds data, an action built with arguments and
        // keyed states give a machine a private table; anything else shares.
        if (static_table_ < 0 && !s_.Same("SharesTable()", lib->SharesTable(), cfg_.crowd_ok)) return;
        buffer_ = &buffer;
        sequence_ = &sequence;
        if (!Compare()) return;
        while (r_.ticks < opt_.max_ticks) {
            if (!Step()) return;
            if (r_.ended_by_config_error) return;
            if (!Compare()) return;
        }
    }

private:
    bool Step() {
        if (g_.Chance(30)) {
            const std::uint32_t flags = g_.Bits();
            lib_ctrl_.flags = model_ctrl_.flags = flags;
            s_.Call(fmt::format("controller.flags = 0x{:08x}", flags));
        }
        const int roll = g_.Below(100);
        if (roll < 70) {
            const Act a = RandomAct(g_);
            s_.Call(fmt::format("Perform({})", ActText(a)));
            ++r_.ticks;
            return Both(s_, r_, [&] { lib_->Perform(a); }, [&] { model_->Perform(a); });
        }
        if (roll < 77) {
            const int e = g_.Below(kEventCount);
            const bool with_action = g_.Chance(50);
            const Act a = with_action ? RandomAct(g_) : Act{};
            s_.Call(fmt::format("SendEvent({}{})", kEventNames[static_cast<std::size_t>(e)],
                                with_action ? ", " + ActText(a) : std::string()));
            bool lr = false, mr = false;
            return Both(
                       s_, r_,
                       [&] { lr = with_action ? lib_->SendEvent(EventOf(e), a) : lib_->SendEvent(EventOf(e)); },
                       [&] { mr = model_->SendEvent(e, a); }) &&
                   s_.Same("SendEvent's result", lr, mr);
        }
        if (roll < 84) {
            int t = g_.Pick(cfg_.targets);
            const How how = static_cast<How>(g_.Below(3));
            std::optional<int> arg;
            if (!cfg_.keyed && cfg_.present[kArgState] && g_.Chance(25) && !IsGlobal(kArgState)) {
                t = kArgState;
                arg = 1 + g_.Below(200);
            }
            static constexpr std::string_view kHow[] = {"TrySetState", "TryResetState", "ForceSetState"};
            s_.Call(fmt::format("{}({}{})", kHow[static_cast<int>(how)], Name(t),
                                arg ? fmt::format(", arg {}", *arg) : std::string()));
            LibSet set{*lib_};
            bool lr = false, mr = false;
            return Both(s_, r_, [&] { lr = set.Set(t, how, arg); }, [&] { mr = model_->SetState(t, how, arg); }) &&
                   s_.Same("the direct change's result", lr, mr);
        }
        if (roll < 87 && cfg_.keep_previous) {
            const bool force = g_.Chance(40);
            s_.Call(fmt::format("RevertToPreviousState({})", force));
            bool lr = false, mr = false;
            return Both(s_, r_, [&] { lr = lib_->RevertToPreviousState(force); },
                        [&] { mr = model_->Revert(force); }) &&
                   s_.Same("RevertToPreviousState's result", lr, mr);
        }
        if (roll < 90 && !cfg_.globals.empty()) {
            if (!model_->Started() && !cfg_.features.global_before_start) return true;
            if (g_.Chance(30)) {
                s_.Call("ClearGlobalState()");
                return Both(s_, r_, [&] { lib_->ClearGlobalState(); }, [&] { model_->ClearGlobal(); });
            }
            const int gl = g_.Pick(cfg_.globals);
            s_.Call(fmt::format("SetGlobalState<{}>()", Name(gl)));
            return Both(
                s_, r_, [&] { WithTypedState(gl, [&]<class G>() { lib_->template SetGlobalState<G>(); }); },
                [&] { model_->SetGlobal(gl); });
        }
        if (roll < 91 && kTicksAccess && cfg_.features.saturation && model_->Started() && g_.Chance(20)) {
            const std::uint32_t ticks = 0xFFFFFFFFu - static_cast<std::uint32_t>(g_.Below(4));
            s_.Call(fmt::format("TicksAccess::Of(machine) = {}", ticks));
            SetLibraryTicks(ticks, *lib_);
            model_->SetTicks(ticks);
            return true;
        }
        if (roll < 92) {
            s_.Call("Reset()");
            return Both(s_, r_, [&] { lib_->Reset(); }, [&] { model_->Reset(); });
        }
        if (roll < 93) {
            s_.Call("Initialize()");
            return Both(s_, r_, [&] { lib_->Initialize(); }, [&] { model_->Initialize(); });
        }
        if (roll < 97) {
            const int t = g_.Pick(cfg_.targets);
            const float timeout = RandomTimeout(g_);
            const bool seq = g_.Chance(50);
            s_.Call(fmt::format("{}.Buffer({}, {})", seq ? "sequence" : "buffer", Name(t), timeout));
            bool lr = false, mr = false;
            return Both(
                       s_, r_,
                       [&] {
                           if (IsKey(t)) {
                               lr = seq ? sequence_->Buffer(KeyOf(t), timeout) : buffer_->Buffer(KeyOf(t), timeout);
                               return;
                           }
                           WithTypedState(t, [&]<class T>() {
                               lr = seq ? sequence_->template Buffer<T>(timeout) : buffer_->template Buffer<T>(timeout);
                           });
                       },
                       [&] { mr = seq ? model_->BufferSeq(t, timeout) : model_->BufferOne(t, timeout); }) &&
                   s_.Same("Buffer's result", lr, mr);
        }
        s_.Call("buffer.Update(); sequence.Update()");
        return Both(
            s_, r_,
            [&] {
                buffer_->Update();
                sequence_->Update();
            },
            [&] {
                model_->UpdateOne();
                model_->UpdateSeq();
            });
    }

    bool IsGlobal(int s) const { return std::find(cfg_.globals.begin(), cfg_.globals.end(), s) != cfg_.globals.end(); }

    struct LibSet {
        DiffManager& m;
        bool Set(int to, How how, std::optional<int> arg) { return SetOn(m, to, how, arg); }
    };

    bool Compare() {
        if (!s_.SameLogs(lib_log_, model_log_, "")) return false;
        if (r_.ended_by_config_error) return true;
        DiffManager& l = *lib_;
        Model& m = *model_;
        if (!s_.Same("IsStarted()", l.IsStarted(), m.Started())) return false;
        if (!s_.SameState("CurrentStateName()", IndexOfName(l.CurrentStateName()), m.Current())) return false;
        if (m.Current() != kNone &&
            !s_.SameState("StateName(CurrentState())", IndexOfName(l.StateName(l.CurrentState())), m.Current()))
            return false;
        if (!s_.Same("TicksInState()", l.TicksInState(), m.Ticks())) return false;
        if (!s_.Same("TimeInState()", static_cast<double>(l.TimeInState()), m.Time())) return false;
        for (int i = 0; i < kTypedCount; ++i) {
            const bool in = WithTypedIndex(i, [&]<int I>() { return l.template IsIn<StateT<I>>(); });
            if (!s_.Same(fmt::format("IsIn<{}>()", Name(i)), in, m.Current() == i && !cfg_.keyed)) return false;
        }
        if (cfg_.keyed) {
            for (int k = kKeyFirst; k < kKeyFirst + kKeyCount; ++k)
                if (!s_.Same(fmt::format("IsIn({})", Name(k)), l.IsIn(KeyOf(k)), m.Current() == k)) return false;
            if (cfg_.present[kTagState] && !s_.Same("IsIn<DTag>()", l.IsIn<DTag>(), m.Current() == kTagState))
                return false;
            if (IsKey(m.Current()) && !s_.SameState("CurrentKey()", kKeyFirst + static_cast<int>(l.CurrentKey<Key>()),
                                                    m.Current()))
                return false;
        }
        if (cfg_.keep_previous &&
            !s_.SameState("PreviousState()", IndexOfName(l.PreviousState().Name()), m.Previous()))
            return false;
        if (!s_.SameState("GlobalStateName()", IndexOfName(l.GlobalStateName()), m.Global())) return false;
        if (cfg_.present[kArgState] && !cfg_.keyed && static_table_ < 0 &&
            !s_.Same("State<S7>().value", l.State<ArgS>().value, m.Data(kArgState)))
            return false;
        if (!s_.Same("InputBuffer::IsBuffering()", buffer_->IsBuffering(), m.Buffering())) return false;
        if (!s_.Same("InputSequenceBuffer::Size()", sequence_->Size(), m.SeqSize())) return false;
        if (cfg_.features.would_next || m.NextRequest() == kNone) {
            const Act probe = RandomAct(g_);
            const auto lw = l.WouldTransition(probe);
            const auto mw = m.WouldTransition(probe);
            const int li = lw.Valid() ? IndexOfName(l.StateName(lw)) : kNone;
            if (!s_.SameState(fmt::format("WouldTransition({})", ActText(probe)), li, mw ? *mw : kNone)) return false;
        }
        return true;
    }

    const Config& cfg_;
    const RunOptions& opt_;
    RunResult& r_;
    Session s_;
    Rng g_;
    int static_table_;
    std::vector<LogEntry> lib_log_, model_log_;
    Ctrl lib_ctrl_, model_ctrl_;
    DiffManager* lib_ = nullptr;
    Model* model_ = nullptr;
    tickfsm::InputBuffer<Ctrl, Act>* buffer_ = nullptr;
    tickfsm::InputSequenceBuffer<Ctrl, Act, Model::kSeqCapacity>* sequence_ = nullptr;
};

// --- Crowds (Crowd<DiffManager>, StaticCrowd<k>) and StaticStateManager ----------------------------
template <class Crowd>
class CrowdRun {
public:
    static constexpr bool kDynamic = requires(Crowd& c, Ctrl& ctrl) { c.SendEvent(0, ctrl, EventOf(0), Act{}); };

    CrowdRun(const Config& cfg, const RunOptions& opt, std::uint64_t seed, RunResult& r)
        : cfg_(cfg), opt_(opt), r_(r), s_(cfg, opt, r), g_(seed ^ 0xC40Dull) {}

    template <class... CrowdArgs>
    void Go(CrowdArgs&&... crowd_args) {
        // Mostly small crowds; some beyond kInlineTickMax (16); some of kGroupMin (32) and more,
        // which TickAllByState groups (by blocks of kGroupBlock, 256).
        const int size_roll = g_.Below(100);
        const std::size_t n = static_cast<std::size_t>(size_roll < 65   ? 1 + g_.Below(6)
                                                       : size_roll < 90 ? 7 + g_.Below(20)
                                                                        : 30 + g_.Below(270));
        for (std::size_t i = 0; i < n; ++i) AddCharacter();
        std::unique_ptr<Crowd> crowd;
        try {
            crowd = MakeCrowd(n, std::forward<CrowdArgs>(crowd_args)...);
        } catch (const std::exception& e) {
            s_.Diverge(fmt::format("constructing the crowd threw: {}", e.what()));
            return;
        }
        crowd_ = crowd.get();
        s_.Call(fmt::format("{} characters", n));
        if (!Compare()) return;
        while (r_.ticks < opt_.max_ticks) {
            if (!Step()) return;
            if (r_.ended_by_config_error) return;
            if (!Compare()) return;
        }
    }

private:
    template <class... CrowdArgs>
    std::unique_ptr<Crowd> MakeCrowd(std::size_t n, CrowdArgs&&... args) {
        if constexpr (kDynamic) {
            Ctrl prototype{&cfg_, &proto_log_, 0, 0, 0};
            return std::make_unique<Crowd>(n, prototype, cfg_, std::forward<CrowdArgs>(args)...);
        } else {
            return std::make_unique<Crowd>(n, cfg_.dt);
        }
    }

    void AddCharacter() {
        lib_logs_.emplace_back();
        model_logs_.emplace_back();
        lib_ctrls_.push_back(Ctrl{&cfg_, &lib_logs_.back(), 0, 0, 0});
        model_ctrls_.push_back(Ctrl{&cfg_, &model_logs_.back(), 0, 0, 0});
        models_.push_back(std::make_unique<Model>(cfg_, model_ctrls_.back(), opt_.mutant));
    }

    std::size_t Size() const { return models_.size(); }

    bool Step() {
        if (g_.Chance(30)) {
            const std::size_t i = static_cast<std::size_t>(g_.Below(static_cast<int>(Size())));
            const std::uint32_t flags = g_.Bits();
            lib_ctrls_[i].flags = model_ctrls_[i].flags = flags;
            s_.Call(fmt::format("controller[{}].flags = 0x{:08x}", i, flags));
        }
        const int roll = g_.Below(100);
        if (roll < 40) {
            const std::size_t i = static_cast<std::size_t>(g_.Below(static_cast<int>(Size())));
            const Act a = RandomAct(g_);
            s_.Call(fmt::format("Perform({}, {})", i, ActText(a)));
            ++r_.ticks;
            return Both(s_, r_, [&] { crowd_->Perform(i, lib_ctrls_[i], a); }, [&] { models_[i]->Perform(a); });
        }
        if (roll < 75) {
            std::vector<Act> acts(Size());
            for (Act& a : acts) a = RandomAct(g_);
            const int how = g_.Below(3);
            static constexpr std::string_view kHow[] = {"TickAll(controllers, actions)",
                                                        "TickAll(controllers, make_action)",
                                                        "TickAllByState(controllers, make_action)"};
            std::string text(kHow[how]);
            for (const Act& a : acts) text += fmt::format(" {:08x}", a.bits);
            s_.Call(std::move(text));
            r_.ticks += Size();
            return Both(
                s_, r_,
                [&] {
                    std::span<Ctrl> ctrls(lib_ctrls_.data(), lib_ctrls_.size());
                    if (how == 0) crowd_->TickAll(ctrls, std::span<const Act>(acts));
                    else if (how == 1) crowd_->TickAll(ctrls, [&acts](std::size_t i, Ctrl&) { return acts[i]; });
                    else crowd_->TickAll(ctrls, [&acts](std::size_t i, Ctrl&) { return acts[i]; }, tickfsm::TickOrder::ByState);
                },
                [&] {
                    for (std::size_t i = 0; i < Size(); ++i) models_[i]->Perform(acts[i]);
                });
        }
        if (roll < 85 && kDynamic) {
            if constexpr (kDynamic) {
                const std::size_t i = static_cast<std::size_t>(g_.Below(static_cast<int>(Size())));
                const int e = g_.Below(kEventCount);
                const Act a = RandomAct(g_);
                s_.Call(fmt::format("SendEvent({}, {}, {})", i, kEventNames[static_cast<std::size_t>(e)], ActText(a)));
                bool lr = false, mr = false;
                return Both(s_, r_, [&] { lr = crowd_->SendEvent(i, lib_ctrls_[i], EventOf(e), a); },
                            [&] { mr = models_[i]->SendEvent(e, a); }) &&
                       s_.Same("SendEvent's result", lr, mr);
            }
        }
        if (roll < 88 && kDynamic && cfg_.keep_previous) {
            if constexpr (kDynamic && requires(Crowd& c, Ctrl& ctrl) { c.RevertToPreviousState(0, ctrl, true); }) {
                const std::size_t i = static_cast<std::size_t>(g_.Below(static_cast<int>(Size())));
                const bool force = g_.Chance(40);
                s_.Call(fmt::format("RevertToPreviousState({}, {})", i, force));
                bool lr = false, mr = false;
                return Both(s_, r_, [&] { lr = crowd_->RevertToPreviousState(i, lib_ctrls_[i], force); },
                            [&] { mr = models_[i]->Revert(force); }) &&
                       s_.Same("RevertToPreviousState's result", lr, mr);
            }
        }
        if (roll < 89 && kTicksAccess && cfg_.features.saturation) {
            const std::size_t i = static_cast<std::size_t>(g_.Below(static_cast<int>(Size())));
            if (models_[i]->Started()) {
                const std::uint32_t ticks = 0xFFFFFFFFu - static_cast<std::uint32_t>(g_.Below(4));
                s_.Call(fmt::format("TicksAccess::Of(crowd, {}) = {}", i, ticks));
                SetLibraryTicks(ticks, *crowd_, i);
                models_[i]->SetTicks(ticks);
                return true;
            }
        }
        if (roll < 93) {
            const std::size_t i = static_cast<std::size_t>(g_.Below(static_cast<int>(Size())));
            s_.Call(fmt::format("Reset({})", i));
            return Both(s_, r_, [&] { crowd_->Reset(i); }, [&] { models_[i]->Reset(); });
        }
        if (Size() < 40) {
            s_.Call("Add()");
            std::size_t index = 0;
            AddCharacter();
            return Both(s_, r_, [&] { index = crowd_->Add(); }, [] {}) &&
                   s_.Same("Add()'s index", index, Size() - 1);
        }
        return true;
    }

    bool Compare() {
        for (std::size_t i = 0; i < Size(); ++i)
            if (!s_.SameLogs(lib_logs_[i], model_logs_[i], fmt::format("character {}: ", i))) return false;
        if (r_.ended_by_config_error) return true;
        if (!s_.Same("Size()", crowd_->Size(), Size())) return false;
        for (std::size_t i = 0; i < Size(); ++i) {
            const Model& m = *models_[i];
            if (!s_.Same(fmt::format("IsStarted({})", i), crowd_->IsStarted(i), m.Started())) return false;
            if (!s_.SameState(fmt::format("CurrentStateName({})", i), IndexOfName(crowd_->CurrentStateName(i)),
                              m.Current()))
                return false;
            if (!s_.Same(fmt::format("TicksInState({})", i), crowd_->TicksInState(i), m.Ticks())) return false;
            if (!s_.Same(fmt::format("TimeInState({})", i), static_cast<double>(crowd_->TimeInState(i)), m.Time())) return false;
            if constexpr (kDynamic) {
                for (int k = 0; k < kEdgeTypes; ++k) {
                    const bool in = WithEdgeIndex(k, [&]<int I>() { return crowd_->template IsIn<StateT<I>>(i); });
                    if (!s_.Same(fmt::format("IsIn<{}>({})", Name(k), i), in, m.Current() == k)) return false;
                }
                if (cfg_.present[kArgState] &&
                    !s_.Same(fmt::format("State<S7>({}).value", i), crowd_->template State<ArgS>(i).value,
                             m.Data(kArgState)))
                    return false;
                if constexpr (requires(const Crowd& c) { c.PreviousState(0); }) {
                    if (cfg_.keep_previous &&
                        !s_.SameState(fmt::format("PreviousState({})", i),
                                      IndexOfName(crowd_->PreviousState(i).Name()), m.Previous()))
                        return false;
                }
            } else {
                for (int k = 0; k < 3; ++k) {
                    const bool in = WithEdgeIndex(k, [&]<int I>() {
                        if constexpr (I < 3) return crowd_->template IsIn<StateT<I>>(i);
                        else return false;
                    });
                    if (!s_.Same(fmt::format("IsIn<{}>({})", Name(k), i), in, m.Current() == k)) return false;
                }
            }
        }
        return true;
    }

    const Config& cfg_;
    const RunOptions& opt_;
    RunResult& r_;
    Session s_;
    Rng g_;
    std::vector<LogEntry> proto_log_;
    std::deque<std::vector<LogEntry>> lib_logs_, model_logs_;
    std::vector<Ctrl> lib_ctrls_;
    std::deque<Ctrl> model_ctrls_;
    std::vector<std::unique_ptr<Model>> models_;
    Crowd* crowd_ = nullptr;
};

template <auto kTable>
void RunStaticManager(const Config& cfg, const RunOptions& opt, std::uint64_t seed, RunResult& r) {
    Session s(cfg, opt, r);
    Rng g(seed ^ 0x57A7ull);
    std::vector<LogEntry> lib_log, model_log;
    Ctrl lib_ctrl{&cfg, &lib_log, 0, 0, 0};
    Ctrl model_ctrl{&cfg, &model_log, 0, 0, 0};
    tickfsm::StaticStateManager<kTable> lib(lib_ctrl, cfg.dt);
    Model model(cfg, model_ctrl, opt.mutant);
    auto compare = [&] {
        if (!s.SameLogs(lib_log, model_log, "")) return false;
        if (r.ended_by_config_error) return true;
        if (!s.Same("IsStarted()", lib.IsStarted(), model.Started())) return false;
        if (!s.SameState("CurrentStateName()", IndexOfName(lib.CurrentStateName()), model.Current())) return false;
        if (!s.Same("TicksInState()", lib.TicksInState(), model.Ticks())) return false;
        if (!s.Same("TimeInState()", static_cast<double>(lib.TimeInState()), model.Time())) return false;
        if (!s.Same("IsIn<S0>()", lib.template IsIn<StateT<0>>(), model.Current() == 0)) return false;
        if (!s.Same("IsIn<S1>()", lib.template IsIn<StateT<1>>(), model.Current() == 1)) return false;
        return s.Same("IsIn<S2>()", lib.template IsIn<StateT<2>>(), model.Current() == 2);
    };
    if (!compare()) return;
    while (r.ticks < opt.max_ticks) {
        if (g.Chance(30)) {
            lib_ctrl.flags = model_ctrl.flags = g.Bits();
            s.Call(fmt::format("controller.flags = 0x{:08x}", lib_ctrl.flags));
        }
        if (g.Chance(97)) {
            const Act a = RandomAct(g);
            s.Call(fmt::format("Perform({})", ActText(a)));
            ++r.ticks;
            if (!Both(s, r, [&] { lib.Perform(a); }, [&] { model.Perform(a); })) return;
        } else if (g.Chance(50)) {
            s.Call("Reset()");
            if (!Both(s, r, [&] { lib.Reset(); }, [&] { model.Reset(); })) return;
        } else {
            s.Call("copy = machine (the copy ticks on)");
            tickfsm::StaticStateManager<kTable> copy(lib);
            lib = copy;
        }
        if (!compare() || r.ended_by_config_error) return;
    }
}

std::uint64_t Hash(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

} // namespace

// --- Entry points ----------------------------------------------------------------------------------
RunResult RunSeed(std::uint64_t seed, const RunOptions& options) {
    RunResult r;
    r.seed = seed;
    Rng g(seed);
    Form form = options.form;
    if (form == Form::Auto) {
        const int roll = static_cast<int>(Hash(seed) % 100);
        form = roll < 55 ? Form::Manager : roll < 85 ? Form::Crowd : Form::Static;
    }
    Config cfg;
    switch (form) {
    case Form::Manager: {
        const bool keyed = g.Chance(25);
        cfg = keyed ? GenerateKeyed(seed, g, options.features) : GenerateTyped(seed, g, options.features, false);
        r.form = keyed ? "StateManager (keyed)" : "StateManager";
        ManagerRun(cfg, options, seed, r, -1).Go();
        break;
    }
    case Form::Crowd: {
        cfg = GenerateTyped(seed, g, options.features, true);
        r.form = "Crowd";
        CrowdRun<tickfsm::Crowd<DiffManager>>(cfg, options, seed, r).Go();
        break;
    }
    default: {
        const int which = g.Below(2);
        int kind = g.Below(4);
        if (!options.features.static_machines && kind < 2) kind += 2;
        cfg = StaticConfig(seed, g, which, options.features);
        static constexpr std::string_view kKinds[] = {"StaticStateManager", "StaticCrowd",
                                                      "StateManager::Configure", "Crowd of Configure"};
        r.form = fmt::format("{} (table {})", kKinds[kind], which == 0 ? "A" : "B");
        if (kind == 0) {
            if (which == 0) RunStaticManager<kStaticA>(cfg, options, seed, r);
            else RunStaticManager<kStaticB>(cfg, options, seed, r);
        } else if (kind == 1) {
            if (which == 0) CrowdRun<tickfsm::StaticCrowd<kStaticA>>(cfg, options, seed, r).Go();
            else CrowdRun<tickfsm::StaticCrowd<kStaticB>>(cfg, options, seed, r).Go();
        } else if (kind == 2) {
            ManagerRun(cfg, options, seed, r, which).Go();
        } else {
            CrowdRun<tickfsm::Crowd<DiffManager>>(cfg, options, seed, r).Go(which);
        }
        break;
    }
    }
    return r;
}

BudgetResult RunBudget(std::uint64_t first_seed, std::uint64_t min_ticks, double max_seconds,
                       const RunOptions& options, std::size_t keep_failures) {
    BudgetResult b;
    const Coverage before = g_coverage;
    const auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    for (std::uint64_t seed = first_seed;; ++seed) {
        if (min_ticks > 0 && b.ticks >= min_ticks) break;
        if (min_ticks == 0 && elapsed() >= max_seconds) break;
        RunResult r = RunSeed(seed, options);
        ++b.machines;
        b.ticks += r.ticks;
        b.config_errors += r.ended_by_config_error ? 1 : 0;
        const int form = r.form.starts_with("StateManager (") || r.form == "StateManager" ? 1
                         : r.form == "Crowd"                                            ? 2
                                                                                        : 3;
        ++b.by_form[form];
        if (r.shares_table == 1) ++b.shared_tables;
        if (r.shares_table == 0) ++b.private_tables;
        if (r.diverged) {
            ++b.divergences;
            if (b.failures.size() < keep_failures) b.failures.push_back(std::move(r));
        }
    }
    b.seconds = elapsed();
    for (std::size_t i = 0; i < b.coverage.size(); ++i) b.coverage[i] = g_coverage[i] - before[i];
    return b;
}

std::string DescribeCoverage(const Coverage& coverage) {
    std::string out;
    for (std::size_t i = 0; i < coverage.size(); ++i) out += fmt::format("  {:10}  {}\n", coverage[i], kCovNames[i]);
    return out;
}

RunResult RunBytes(const std::uint8_t* data, std::size_t size, const RunOptions& options) {
    std::uint64_t seed = 0xF022ull;
    for (std::size_t i = 0; i < size; ++i) seed = Hash(seed ^ data[i]);
    RunOptions o = options;
    if (size > 0) o.form = static_cast<Form>(data[0] % 4);
    if (size > 1) o.max_ticks = 50 + static_cast<std::uint64_t>(data[1]) * 4;
    return RunSeed(seed, o);
}

bool SwitchOff(Features& f, const std::string& names) {
    std::size_t at = 0;
    while (at <= names.size()) {
        const std::size_t end = std::min(names.find(',', at), names.size());
        const std::string name = names.substr(at, end - at);
        if (name == "global_before_start") f.global_before_start = false;
        else if (name == "args_deferred") f.args_deferred = false;
        else if (name == "would_next") f.would_next = false;
        else if (name == "global_exit_error") f.global_exit_error = false;
        else if (name == "global_self_arg") f.global_self_arg = false;
        else if (name == "crowd_previous") f.crowd_previous = false;
        else if (name == "time_double") f.time_double = false;
        else if (name == "saturation") f.saturation = false;
        else if (name == "static_machines") f.static_machines = false;
        else if (!name.empty()) return false;
        at = end + 1;
    }
    return true;
}

Features FeaturesFromEnvironment() {
    Features f;
    if (const char* off = std::getenv("TICKFSM_DIFF_OFF")) SwitchOff(f, off);
    return f;
}

} // namespace tickfsm_diff
