// The test-side behaviour shared by the library's hooks and the model's: what a
// hook logs and asks for, and how a Config describes itself.
#include "diff_common.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace tickfsm_diff {

namespace {
std::uint64_t Mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
std::string NameOf(int i) {
    if (i >= 0 && i < kIndexCount) return std::string(kStateNames[static_cast<std::size_t>(i)]);
    if (i == kBadTarget) return "NotAState";
    return fmt::format("#{}", i);
}
bool IsGlobalType(const Config& cfg, int self) {
    return std::find(cfg.globals.begin(), cfg.globals.end(), self) != cfg.globals.end();
}
} // namespace

std::string Format(const LogEntry& e) {
    static constexpr std::array<std::string_view, 9> kinds{"init",    "enter",   "perform", "exit",   "action-enter",
                                                           "action-update", "action-exit", "request", "skip"};
    std::string out = fmt::format("{} {}", kinds[static_cast<std::size_t>(e.kind)], NameOf(e.self));
    if (e.slot >= 0) out += fmt::format(".action{}", e.slot);
    if (e.kind == HookKind::Request || e.kind == HookKind::Skip) {
        const int op = e.extra & 15;
        const int target = ((e.extra >> 4) & 0xFF) - 2;
        const int result = (e.extra >> 12) & 1;
        const int arg = e.extra >> 13;
        const auto op_name = op < static_cast<int>(kOpNames.size()) ? kOpNames[static_cast<std::size_t>(op)] : "?";
        if (op == static_cast<int>(Op::Event))
            out += fmt::format(": {}({}) ", op_name, kEventNames[static_cast<std::size_t>(target) % kEventNames.size()]);
        else
            out += fmt::format(": {} {} arg={} -> {}", op_name, NameOf(target), arg, result);
        return out;
    }
    if (e.cur != -3) out += fmt::format(" [handle: in {} for {} ticks]", NameOf(e.cur), e.ticks);
    if (e.extra) out += fmt::format(" data={}", e.extra);
    return out;
}

void Config::Finish() {
    info = {};
    present = {};
    for (int i = 0; i < kTypedCount; ++i) info[static_cast<std::size_t>(i)] = InfoOfKind(kTypedKinds[static_cast<std::size_t>(i)]);
    declared.clear();
    auto declare = [&](int s) {
        if (s < 0 || present[static_cast<std::size_t>(s)]) return;
        present[static_cast<std::size_t>(s)] = true;
        declared.push_back(s);
    };
    for (const KeyedDecl& d : decls) {
        StateInfo s = InfoOfKind(d.kind);
        if (d.kind == StateKind::Delegate) {
            s.enter = d.hooks & 1;
            s.perform = d.hooks & 2;
            s.exit = d.hooks & 4;
            s.gate_enter = d.hooks & 8;
            s.gate_exit = d.hooks & 16;
        }
        info[static_cast<std::size_t>(d.index)] = s;
        declare(d.index);
    }
    for (const Block& b : blocks) {
        declare(b.state);
        for (const Item& it : b.items) {
            if (it.kind == ItemKind::Event) declare(it.to);
            if (it.kind == ItemKind::Edge) declare(it.edge.to);
        }
    }
    targets.clear();
    for (int s : declared)
        if (!IsGlobalType(*this, s)) targets.push_back(s);
    crowd_ok = !keyed;
    for (const Block& b : blocks)
        for (const Item& it : b.items) {
            if (it.kind == ItemKind::Do && it.action == 2) crowd_ok = false;
            if (it.kind == ItemKind::Edge && it.edge.kind == CondKind::Capture) crowd_ok = false;
        }
}

std::string Config::Describe() const {
    std::string out = fmt::format("machine (seed {}): dt = {}, {}{}\n", seed, dt, keyed ? "keyed, " : "",
                                  keep_previous ? fmt::format("KeepPreviousState() before block {}", keep_at)
                                                : std::string("no previous state"));
    for (const KeyedDecl& d : decls) {
        if (d.kind == StateKind::Delegate)
            out += fmt::format("  AddDelegateState({}) hooks mask {}\n", NameOf(d.index), d.hooks);
        else
            out += fmt::format("  AddState<{}>({}, gen {})\n", d.kind == StateKind::KState ? "KState" : "KPlain",
                               NameOf(d.index), d.gen);
    }
    for (std::size_t bi = 0; bi < blocks.size(); ++bi) {
        const Block& b = blocks[bi];
        out += fmt::format("  [{}] {}({})", bi, b.initial ? "SetInitialState" : "From", NameOf(b.state));
        for (const Item& it : b.items) {
            switch (it.kind) {
            case ItemKind::Event:
                out += fmt::format(".On({}).To({})", kEventNames[static_cast<std::size_t>(it.event)], NameOf(it.to));
                break;
            case ItemKind::Do:
                out += it.action == 2 ? fmt::format(".Do<X2>({})", it.arg) : fmt::format(".Do<X{}>()", it.action);
                break;
            case ItemKind::Edge:
                out += fmt::format(".{}({}, {}{}{})", it.edge.forced ? "ForceTo" : "To", NameOf(it.edge.to),
                                   kCondNames[static_cast<std::size_t>(it.edge.kind)],
                                   it.edge.kind == CondKind::Fn || it.edge.kind == CondKind::Capture
                                       ? fmt::format(" #{}", it.edge.param)
                                       : std::string(),
                                   it.edge.maker ? ", make S7 from the action" : "");
                break;
            }
        }
        if (b.chain >= 0) out += fmt::format("  (fixed typed chain {})", b.chain);
        out += "\n";
    }
    out += fmt::format("  script: requests {}/1000, errors {}/1000, cond_p {} {} {}, cond_time {}\n", req_permille,
                       err_permille, cond_p[0], cond_p[1], cond_p[2], cond_time);
    out += "  gates (enter/exit masks):";
    for (int s : declared)
        if (gate_enter[static_cast<std::size_t>(s)] || gate_exit[static_cast<std::size_t>(s)])
            out += fmt::format(" {}:{:x}/{:x}", NameOf(s), gate_enter[static_cast<std::size_t>(s)],
                               gate_exit[static_cast<std::size_t>(s)]);
    out += "\n";
    return out;
}

namespace {
std::int32_t Pack(Op op, int target, bool result, int arg) {
    return static_cast<std::int32_t>(static_cast<int>(op) | ((target + 2) & 0xFF) << 4 | (result ? 1 : 0) << 12 |
                                     arg << 13);
}
} // namespace

void RunHook(Ctrl& c, const Act& a, Handle* h, int self, HookKind kind, int slot, std::int32_t extra) {
    const Config& cfg = *c.cfg;
    ++c.calls;
    LogEntry entry;
    entry.kind = kind;
    entry.self = static_cast<std::int16_t>(self);
    entry.slot = static_cast<std::int16_t>(slot);
    entry.extra = extra;
    if (h) {
        entry.cur = static_cast<std::int16_t>(h->Current());
        entry.ticks = h->Ticks();
    }
    c.log->push_back(entry);
    if (!h) return;

    std::uint64_t r = Mix(cfg.seed ^ Mix(c.calls * 0x9E3779B1ull + static_cast<std::uint64_t>(self) * 131u +
                                         static_cast<std::uint64_t>(kind) * 7u + static_cast<std::uint64_t>(slot + 1)) ^
                          (static_cast<std::uint64_t>(a.bits) << 17) ^ c.flags);
    auto take = [&r](std::uint64_t n) {
        const std::uint64_t v = r % n;
        r = Mix(r);
        return static_cast<int>(v);
    };
    const bool is_exit = kind == HookKind::Exit || kind == HookKind::AExit;
    const bool is_global = IsGlobalType(cfg, self);
    const bool want = static_cast<std::uint32_t>(take(1000)) < cfg.req_permille;
    // The global state's exit (run only when it is replaced or cleared) and the
    // Perform of the global state with arguments (which then enters itself) are
    // rare places: when the script tests errors, they ask for one 3 times in 10.
    const bool rare = is_global && (is_exit || (self == kArgState && kind == HookKind::Perform));
    const bool error = static_cast<std::uint32_t>(take(1000)) < cfg.err_permille ||
                       (rare && cfg.err_permille > 0 && take(10) < 3);
    auto log = [&](HookKind k, Op op, int target, bool result, int arg) {
        LogEntry e;
        e.kind = k;
        e.self = static_cast<std::int16_t>(self);
        e.slot = static_cast<std::int16_t>(slot);
        e.extra = Pack(op, target, result, arg);
        c.log->push_back(e);
    };
    auto any_target = [&] { return cfg.targets[static_cast<std::size_t>(take(cfg.targets.size()))]; };
    const bool args_ok = !cfg.keyed && cfg.present[kArgState] && !IsGlobalType(cfg, kArgState);
    const bool revert_ok = cfg.keep_previous && (!cfg.in_crowd || cfg.features.crowd_previous);

    if (is_exit) {
        // Any change asked from an exit hook is a ConfigError: only asked when the script tests errors.
        if (!error || (is_global && !cfg.features.global_exit_error)) return;
        const int t = any_target();
        switch (take(3)) {
        case 0: log(HookKind::Request, Op::Event, 0, false, 0); h->SendEvent(take(kEventCount)); break;
        case 1: log(HookKind::Request, Op::Next, t, false, 0); h->NextState(t); break;
        default: log(HookKind::Request, Op::Force, t, false, 0); h->Set(t, How::Force, std::nullopt); break;
        }
        log(HookKind::Skip, Op::None, 0, false, 0); // not reached: the request above throws
        return;
    }
    if (c.looping > 0 && kind == HookKind::Enter && slot < 0 && !is_global) {
        // A state that keeps re-entering itself: the 65th change in a row is a ConfigError.
        --c.looping;
        log(HookKind::Request, Op::Force, self, true, 0);
        h->Set(self, How::Force, std::nullopt);
        return;
    }
    if (error) {
        // A request that must be a ConfigError, if this hook can make one.
        const int cur = h->Current();
        int pick = take(4);
        if (is_global && self == kArgState && kind == HookKind::Perform) pick = 2;
        if (pick == 3 && kind == HookKind::Enter && slot < 0 && !is_global) {
            c.looping = 100;
            log(HookKind::Request, Op::Force, self, true, 0);
            h->Set(self, How::Force, std::nullopt);
            return;
        }
        if (pick == 0) {
            log(HookKind::Request, Op::BadTarget, -1, false, 0);
            h->NextState(kBadTarget);
            log(HookKind::Skip, Op::None, 0, false, 0);
            return;
        }
        if (pick == 1 && !cfg.keep_previous && !cfg.keyed) {
            log(HookKind::Request, Op::Revert, 0, false, 0);
            h->Revert(false);
            log(HookKind::Skip, Op::None, 0, false, 0);
            return;
        }
        if (pick == 2 && !cfg.keyed && cfg.present[kArgState]) {
            // Entering with arguments the state whose hook runs: S7 current (its hooks or
            // actions), or the global S7 from its own Perform.
            const bool own = !is_global && self == kArgState && cur == kArgState;
            const bool global_own = is_global && self == kArgState && kind == HookKind::Perform &&
                                    cfg.features.global_self_arg;
            if (own || global_own) {
                log(HookKind::Request, Op::ForceArg, kArgState, false, 1);
                h->Set(kArgState, How::Force, 1);
                log(HookKind::Skip, Op::None, 0, false, 0);
                return;
            }
        }
    }
    if (!want) return;

    // Weighted choice of an ordinary request.
    struct Choice {
        Op op;
        int weight;
    };
    const std::array<Choice, 12> choices{{
        {Op::Event, 25},
        {Op::Next, 15},
        {Op::Try, 15},
        {Op::TryReset, 8},
        {Op::Force, 12},
        {Op::TryArg, args_ok ? 4 : 0},
        {Op::TryResetArg, args_ok ? 3 : 0},
        {Op::ForceArg, args_ok ? 5 : 0},
        {Op::Revert, revert_ok ? 5 : 0},
        {Op::RevertForce, revert_ok ? 3 : 0},
        {Op::NextThenForce, 5},
        {Op::ArgThenForce, args_ok && cfg.features.args_deferred ? 3 : 0},
    }};
    int total = 0;
    for (const Choice& ch : choices) total += ch.weight;
    int roll = take(static_cast<std::uint64_t>(total));
    Op op = Op::None;
    for (const Choice& ch : choices) {
        if (roll < ch.weight) {
            op = ch.op;
            break;
        }
        roll -= ch.weight;
    }
    const int cur = h->Current();
    const int arg = take(200) + 1;
    // Cases the decisions leave open are skipped, the same way on both sides:
    // with arguments, the current state (from a state's hook: an error; Try to
    // the current state with arguments; from the global state's hooks).
    const bool arg_op = op == Op::TryArg || op == Op::TryResetArg || op == Op::ForceArg || op == Op::ArgThenForce;
    if (arg_op && (cur == kArgState || is_global)) {
        log(HookKind::Skip, op, kArgState, false, 0);
        return;
    }
    switch (op) {
    case Op::Event: {
        const int e = take(kEventCount);
        log(HookKind::Request, op, e, false, 0);
        h->SendEvent(e);
        break;
    }
    case Op::Next: {
        const int t = any_target();
        log(HookKind::Request, op, t, false, 0);
        h->NextState(t);
        break;
    }
    case Op::Try:
    case Op::TryReset:
    case Op::Force: {
        const int t = any_target();
        const How how = op == Op::Try ? How::Try : op == Op::TryReset ? How::TryReset : How::Force;
        const bool ok = h->Set(t, how, std::nullopt);
        log(HookKind::Request, op, t, ok, 0);
        break;
    }
    case Op::TryArg:
    case Op::TryResetArg:
    case Op::ForceArg: {
        const How how = op == Op::TryArg ? How::Try : op == Op::TryResetArg ? How::TryReset : How::Force;
        const bool ok = h->Set(kArgState, how, arg);
        log(HookKind::Request, op, kArgState, ok, arg);
        break;
    }
    case Op::Revert:
    case Op::RevertForce: {
        const bool ok = h->Revert(op == Op::RevertForce);
        log(HookKind::Request, op, 0, ok, 0);
        break;
    }
    case Op::NextThenForce: {
        const int n = any_target();
        const int t = any_target();
        h->NextState(n);
        h->Set(t, How::Force, std::nullopt);
        log(HookKind::Request, op, n, false, t);
        break;
    }
    case Op::ArgThenForce: {
        const int t = any_target();
        const bool ok = h->Set(kArgState, How::Force, arg);
        h->Set(t, How::Force, std::nullopt);
        log(HookKind::Request, op, t, ok, arg);
        break;
    }
    default: break;
    }
}

} // namespace tickfsm_diff
