// The reference model of the tick rules (see reference_model.hpp). Each step
// cites the README rule it follows.
#include "reference_model.hpp"

#include <cmath>
#include <limits>

namespace tickfsm_diff {

namespace {
std::uint32_t Saturating(std::uint32_t ticks) {
    // Decision: TicksInState saturates at 4294967295 instead of wrapping.
    return ticks == std::numeric_limits<std::uint32_t>::max() ? ticks : ticks + 1;
}
} // namespace

/// The Machine handle of a model hook: "a change asked for from a hook is
/// applied when the hook returns, never nested; the last one asked for in one
/// hook wins"; NextState is only a request for the next Perform.
class ModelHandle final : public Handle {
public:
    ModelHandle(Model& m, int self, bool in_exit, bool global_hook)
        : m_(m), self_(self), in_exit_(in_exit), global_hook_(global_hook) {}
    ~ModelHandle() override {
        if (asked_next_ && asked_change_) Cover(Cov::NextAndImmediate);
    }

    void SendEvent(int event) override {
        CheckNotLeaving();
        const int to = m_.event_to_[m_.cur_][event];
        if (to == kNone) { // unhandled: nothing changes
            Cover(Cov::EventUnhandled);
            return;
        }
        Cover(Cov::EventFromHook);
        Pend(to, std::nullopt);
    }
    void NextState(int to) override {
        CheckNotLeaving();
        if (to == kBadTarget) {
            Cover(Cov::BadTargetError);
            throw ModelConfigError{"NextState of a type that is not a state"};
        }
        m_.next_ = to;
        asked_next_ = true;
    }
    bool Set(int to, How how, std::optional<int> arg) override {
        CheckNotLeaving();
        if (to == kBadTarget) {
            Cover(Cov::BadTargetError);
            throw ModelConfigError{"set state of a type that is not a state"};
        }
        if (how == How::Try && m_.cur_ == to) return false;
        if (how != How::Force && !m_.Allowed(m_.cur_, to)) return false;
        if (arg && (global_hook_ ? to == self_ : to == m_.cur_)) {
            Cover(global_hook_ ? Cov::GlobalSelfArgError : Cov::OwnArgError);
            throw ModelConfigError{"entering with arguments the state whose hook is running"};
        }
        Pend(to, arg);
        return true;
    }
    bool Revert(bool force) override {
        if (!m_.cfg_.keep_previous) {
            Cover(Cov::RevertWithoutKeepError);
            throw ModelConfigError{"RevertToPreviousState without KeepPreviousState"};
        }
        if (m_.previous_ == kNone) return false;
        const bool done = Set(m_.previous_, force ? How::Force : How::Try, std::nullopt);
        if (done) Cover(m_.cfg_.in_crowd ? Cov::RevertInCrowd : Cov::RevertApplied);
        return done;
    }
    std::uint32_t Ticks() const override { return m_.ticks_; }
    int Current() const override { return m_.cur_; }

private:
    void CheckNotLeaving() const {
        if (!in_exit_) return;
        Cover(global_hook_ ? Cov::GlobalExitError : Cov::ExitHookError);
        throw ModelConfigError{"a change asked for from an exit hook"};
    }
    void Pend(int to, std::optional<int> arg) {
        if (m_.pending_ && m_.pending_->arg) Cover(Cov::ArgSuperseded); // it builds nothing
        m_.pending_ = Model::Change_{to, arg};
        asked_change_ = true;
    }
    Model& m_;
    int self_;
    bool in_exit_;
    bool global_hook_;
    bool asked_next_ = false;
    bool asked_change_ = false;
};

Model::Model(const Config& cfg, Ctrl& ctrl, Mutant mutant) : cfg_(cfg), ctrl_(ctrl), mutant_(mutant) {
    for (auto& row : event_to_)
        for (int& to : row) to = kNone;
    for (const Block& b : cfg.blocks)
        for (const Item& it : b.items) {
            // "Several From<S>() calls for one S append their transitions in order."
            if (it.kind == ItemKind::Edge) edges_[b.state].push_back(&it.edge);
            if (it.kind == ItemKind::Do) actions_[b.state].push_back(&it);
            if (it.kind == ItemKind::Event) event_to_[b.state][it.event] = it.to;
        }
}

int Model::Data(int state) const {
    if (state == kArgState && !cfg_.keyed) return value7_;
    for (const KeyedDecl& d : cfg_.decls)
        if (d.index == state) return d.kind == StateKind::Delegate ? 0 : d.gen;
    return 0;
}

// --- hooks ---------------------------------------------------------------------------
void Model::StateHook(int s, HookKind kind, const Act& a, bool in_exit, bool global_hook) {
    const StateInfo& info = cfg_.info[static_cast<std::size_t>(s)];
    const bool has = kind == HookKind::Enter ? info.enter : kind == HookKind::Perform ? info.perform : info.exit;
    if (!has) return;
    if (info.kind == StateKind::Delegate) Cover(Cov::DelegateHook);
    if (info.machine_hooks) {
        ModelHandle h(*this, s, in_exit, global_hook);
        RunHook(ctrl_, a, &h, s, kind, -1, Data(s));
    } else {
        RunHook(ctrl_, a, nullptr, s, kind, -1, Data(s));
    }
}

// Actions: X0 has OnEnter/OnUpdate/OnExit taking the handle, X1 only OnUpdate
// taking it, X2(arg) OnEnter/OnExit without it (its argument is state * 16 + position).
void Model::ActionHook(int s, int slot, const Item& action, HookKind kind, const Act& a, bool in_exit) {
    const std::int32_t extra = action.action == 2 ? 2000 + action.arg : action.action * 1000;
    switch (action.action) {
    case 0: { // X0 and X1 do not know their position: they log -1
        ModelHandle h(*this, s, in_exit, false);
        RunHook(ctrl_, a, &h, s, kind, -1, extra);
        break;
    }
    case 1:
        if (kind == HookKind::AUpdate) {
            ModelHandle h(*this, s, in_exit, false);
            RunHook(ctrl_, a, &h, s, kind, -1, extra);
        }
        break;
    default:
        if (kind != HookKind::AUpdate) RunHook(ctrl_, a, nullptr, s, kind, slot, extra);
        break;
    }
}

void Model::InitAll() {
    // "every state's OnStateInit, in the order states were declared ... and never again"
    for (int s : cfg_.declared)
        if (cfg_.info[static_cast<std::size_t>(s)].init) {
            Cover(Cov::InitRan);
            RunHook(ctrl_, Act{}, nullptr, s, HookKind::Init, -1, Data(s));
        }
    initialized_ = true;
}

/// "A change runs the old state's OnStateExit then its actions' OnExit, resets
/// the ticks, then the new state's OnStateEnter and its actions' OnEnter; if one
/// of those sends an event the state handles, that change follows at once (the
/// rest of that list is skipped)." At most 64 changes in a row.
void Model::ChangeTo(int to, std::optional<int> arg, const Act& a) {
    for (int changes = 0;; ++changes) {
        if (changes == 64) {
            Cover(Cov::ChainLimitError);
            throw ModelConfigError{"more than 64 state changes in a row"};
        }
        const int from = cur_;
        if (from != kNone) {
            StateHook(from, HookKind::Exit, a, true, false);
            const auto& list = actions_[from];
            for (std::size_t i = 0; i < list.size(); ++i)
                ActionHook(from, static_cast<int>(i), *list[i], HookKind::AExit, a, true);
        }
        if (cfg_.keep_previous && from != kNone) previous_ = from; // "every change records the state it came from"
        if (arg) { // built between the old state's exit and the new state's enter
            Cover(Cov::ArgBuiltAtChange);
            value7_ = *arg;
        }
        cur_ = to;
        if (!(mutant_ == Mutant::NoTickReset && from == to)) ticks_ = 0;
        pending_.reset();
        StateHook(to, HookKind::Enter, a, false, false);
        if (!pending_) {
            const auto& list = actions_[to];
            for (std::size_t i = 0; i < list.size() && !pending_; ++i) {
                ActionHook(to, static_cast<int>(i), *list[i], HookKind::AEnter, a, false);
                if (pending_ && i + 1 < list.size()) Cover(Cov::ActionSkippedByChange);
            }
        }
        if (!pending_) return;
        Cover(Cov::ChainedChange);
        to = pending_->to;
        arg = pending_->arg;
        pending_.reset();
    }
}

/// Decision: a global state set before the first Perform is only recorded; once
/// the machine has entered its first state, the global state's OnStateEnter
/// runs, and a change it asks for applies as from any enter hook.
void Model::EnterRecordedGlobal(const Act& a) {
    if (global_ == kNone || global_entered_) return;
    global_entered_ = true;
    pending_.reset();
    StateHook(global_, HookKind::Enter, a, false, true);
    if (pending_) {
        Cover(Cov::GlobalChangeFromEnter);
        const Change_ c = *pending_;
        pending_.reset();
        ChangeTo(c.to, c.arg, a);
    }
}

void Model::Start(const Act& a) {
    if (!initialized_) InitAll();
    started_ = true;
    cur_ = kNone;
    ticks_ = 0;
    ChangeTo(cfg_.initial, std::nullopt, a);
    if (global_ != kNone && !global_entered_) Cover(Cov::GlobalEnteredAtStart);
    EnterRecordedGlobal(a);
}

// --- the tick --------------------------------------------------------------------------
bool Model::Allowed(int from, int to) const {
    // "the current state's CanExitState, the target's CanEnterState"
    if (from != kNone && cfg_.info[static_cast<std::size_t>(from)].gate_exit &&
        !GateExit(ctrl_, from, to, Data(from)))
        return false;
    return !cfg_.info[static_cast<std::size_t>(to)].gate_enter || GateEnter(ctrl_, to, from, Data(to));
}

const Edge* Model::Probe(int from, const Act& a, std::uint32_t ticks, bool count) const {
    // "TimeInState() is always TicksInState() * fixed_dt"
    const float t = static_cast<float>(ticks) * cfg_.dt; // README: a condition receives the time as a float
    const Edge* fired = nullptr;
    for (const Edge* e : edges_[from]) {
        if (!EvalCondition(*e, ctrl_, a, t)) continue;
        if (!e->forced && !Allowed(from, e->to)) { // "ForceTo skips them"
            if (count) Cover(Cov::GateRefusedCondition);
            continue;
        }
        if (count && e->forced && !Allowed(from, e->to)) Cover(Cov::ForcedPastGate);
        fired = e;
        if (mutant_ != Mutant::LastHolding) break; // "the first that holds ... fires"
    }
    return fired;
}

void Model::Perform(const Act& a) {
    // 1. First Perform only: OnStateInit (unless Initialize() ran), enter the initial state.
    const bool starting = !started_;
    if (starting) Start(a);
    if (cfg_.keyed) Cover(Cov::KeyedTick);
    // 2. Ticks in state += 1.
    if (ticks_ == std::numeric_limits<std::uint32_t>::max()) Cover(Cov::TicksSaturated);
    ticks_ = Saturating(ticks_);
    // 3. A waiting NextState request is this tick's one transition; else the conditions.
    //    hooks.md: a request waits for the next Perform, also one from the initial
    //    state's enter hooks; asked, it still stands for this tick's transition.
    if (starting && next_ != kNone) {
    } else if (next_ != kNone) {
        const int to = next_;
        next_ = kNone;
        Cover(Cov::NextStateApplied);
        ChangeTo(to, std::nullopt, a);
    } else if (const Edge* e = Probe(cur_, a, ticks_, true)) {
        Cover(e->to == cur_ ? Cov::SelfTransition : Cov::ConditionFired);
        if (e->chain_pos > 0) Cover(Cov::TypedChainLaterFired);
        std::optional<int> arg;
        if (e->maker) {
            Cover(Cov::MakerBuilt);
            arg = MakerArg(a);
        }
        ChangeTo(e->to, arg, a);
    }
    // 4. The global state's Perform, the current state's Perform, its actions' OnUpdate;
    //    the first that asks for a change ends the tick with it.
    pending_.reset();
    if (global_ != kNone) {
        StateHook(global_, HookKind::Perform, a, false, true);
        if (pending_) {
            Cover(Cov::GlobalPerformChange);
            const Change_ c = *pending_;
            pending_.reset();
            return ChangeTo(c.to, c.arg, a);
        }
    }
    StateHook(cur_, HookKind::Perform, a, false, false);
    const auto& list = actions_[cur_];
    for (std::size_t i = 0; i < list.size() && !pending_; ++i) {
        ActionHook(cur_, static_cast<int>(i), *list[i], HookKind::AUpdate, a, false);
        if (pending_ && i + 1 < list.size()) Cover(Cov::ActionSkippedByChange);
    }
    if (pending_) {
        const Change_ c = *pending_;
        pending_.reset();
        ChangeTo(c.to, c.arg, a);
    }
}

// --- outside a tick -----------------------------------------------------------------------
bool Model::SendEvent(int event, const Act& a) {
    if (!started_) return false; // "also when the machine has not started": nothing changes
    const int to = event_to_[cur_][event];
    if (to == kNone) {
        Cover(Cov::EventUnhandled);
        return false;
    }
    Cover(Cov::EventFromOutside);
    ChangeTo(to, std::nullopt, a); // decision: events do not go through gates
    return true;
}

bool Model::SetState(int to, How how, std::optional<int> arg) {
    // "TrySetState (returns whether it changed; no change if already in T),
    // TryResetState (re-enters T even if current) and ForceSetState"; gates apply
    // unless forced; "a machine not started yet starts in T".
    if (how == How::Try && cur_ == to) return false;
    if (how != How::Force && !Allowed(cur_, to)) {
        Cover(Cov::DirectRefusedByGate);
        return false;
    }
    if (!started_) {
        Cover(Cov::StartedByDirectChange);
        if (!initialized_) InitAll();
        started_ = true;
        cur_ = kNone;
        ticks_ = 0;
    }
    ChangeTo(to, arg, Act{});
    if (global_ != kNone && !global_entered_) Cover(Cov::GlobalEnteredAtStart);
    EnterRecordedGlobal(Act{});
    return true;
}

bool Model::Revert(bool force) {
    if (!cfg_.keep_previous) throw ModelConfigError{"RevertToPreviousState without KeepPreviousState"};
    if (previous_ == kNone) return false; // "With no previous state, revert does nothing and returns false."
    const bool done = SetState(previous_, force ? How::Force : How::Try);
    if (done) Cover(Cov::RevertApplied);
    return done;
}

void Model::SetGlobal(int g) {
    // "Setting another exits the old one and enters the new"
    if (global_ != kNone && global_entered_) StateHook(global_, HookKind::Exit, Act{}, true, true);
    global_ = g;
    global_entered_ = false;
    if (g == kArgState) Cover(Cov::ArgStateGlobal);
    if (!started_) Cover(Cov::GlobalRecordedBeforeStart);
    if (started_) EnterRecordedGlobal(Act{});
}

void Model::ClearGlobal() {
    if (global_ != kNone && global_entered_) StateHook(global_, HookKind::Exit, Act{}, true, true);
    global_ = kNone;
    global_entered_ = false;
}

void Model::Reset() {
    // "back to the initial state, entered on the next Perform; no hook runs now";
    // decision: Reset clears a waiting NextState request.
    if (started_) Cover(Cov::ResetWhileRunning);
    started_ = false;
    cur_ = kNone;
    ticks_ = 0;
    next_ = kNone;
    previous_ = kNone;
}

void Model::Initialize() {
    if (!initialized_) InitAll();
}

std::optional<int> Model::WouldTransition(const Act& a) const {
    // "the state the next Perform would move to ... calling no hook"; before the
    // first Perform, from the initial state as if just entered; decision: a
    // waiting NextState request is what it reports.
    if (started_ && next_ != kNone && cfg_.features.would_next) {
        Cover(Cov::WouldReportsNext);
        return next_;
    }
    const int from = started_ ? cur_ : cfg_.initial;
    const std::uint32_t ticks = Saturating(started_ ? ticks_ : 0);
    if (const Edge* e = Probe(from, a, ticks, false)) return e->to;
    return std::nullopt;
}

// --- input buffers ----------------------------------------------------------------------------
Model::Request_ Model::MakeRequest(int state, float timeout) const {
    const float ticks = std::ceil(timeout / cfg_.dt);
    const bool inside = started_ && cur_ == state;
    return {state, ticks < 1.0f ? 1u : static_cast<std::uint32_t>(ticks), inside, inside ? ticks_ : 0u};
}

// Decision: a request is met once the machine is in its state after being
// out of it since the request, by its own try or by any other change; a
// request made inside its state is met when the state's time goes back (it
// was left and entered again between two looks).
bool Model::TryRequest(Request_& r) {
    if (started_ && cur_ == r.state) {
        if (!r.inside || ticks_ < r.seen) return true;
        r.seen = ticks_;
        return false;
    }
    r.inside = false;
    return SetState(r.state, How::Try);
}

bool Model::BufferOne(int state, float timeout) {
    wanted_ = MakeRequest(state, timeout); // the latest request wins
    if (!TryRequest(*wanted_)) return false;
    Cover(Cov::BufferEntered);
    wanted_.reset();
    return true;
}

void Model::UpdateOne() {
    if (!wanted_) return;
    if (TryRequest(*wanted_)) {
        Cover(Cov::BufferEntered);
        wanted_.reset();
        return;
    }
    if (--wanted_->ticks_left == 0) {
        Cover(Cov::BufferTimedOut);
        wanted_.reset();
    }
}

bool Model::TryFront() {
    if (!TryRequest(queue_.front())) return false;
    Cover(Cov::BufferEntered);
    queue_.pop_front();
    return true;
}

bool Model::BufferSeq(int state, float timeout) {
    if (queue_.size() == kSeqCapacity) { // "replaces the oldest"
        Cover(Cov::SequenceReplaced);
        queue_.pop_front();
    }
    queue_.push_back(MakeRequest(state, timeout));
    return queue_.size() == 1 && TryFront();
}

void Model::UpdateSeq() {
    if (queue_.empty()) return;
    if (TryFront()) return;
    std::deque<Request_> kept;
    for (Request_ r : queue_)
        if (--r.ticks_left != 0) kept.push_back(r);
        else Cover(Cov::BufferTimedOut);
    queue_ = std::move(kept);
}

} // namespace tickfsm_diff
