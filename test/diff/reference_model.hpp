#pragma once
// The reference model: a small interpreter of README's tick rules (The tick
// rules through Global state, previous state and revert, and the decisions of
// the reliability issue), written from the README, not from the library. One
// Model is one character: a StateManager, or one character of a Crowd.

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "diff_common.hpp"

namespace tickfsm_diff {

class Model {
public:
    /// `ctrl` is the model's own controller (its log is the expected log).
    Model(const Config& cfg, Ctrl& ctrl, Mutant mutant = Mutant::None);

    // --- calls from outside a tick ---------------------------------------------
    void Perform(const Act& a);
    bool SendEvent(int event, const Act& a);
    /// TrySetState/TryResetState/ForceSetState (hooks receive Act{}).
    bool SetState(int to, How how, std::optional<int> arg = std::nullopt);
    bool Revert(bool force);
    void SetGlobal(int g);
    void ClearGlobal();
    void Reset();
    void Initialize();
    /// What tickfsm::detail::TicksAccess does to the library: ticks set directly (to test saturation).
    void SetTicks(std::uint32_t ticks) { ticks_ = ticks; }

    // InputBuffer and InputSequenceBuffer<..., kSeqCapacity>.
    static constexpr std::size_t kSeqCapacity = 3;
    bool BufferOne(int state, float timeout);
    void UpdateOne();
    bool BufferSeq(int state, float timeout);
    void UpdateSeq();
    bool Buffering() const { return wanted_.has_value(); }
    std::size_t SeqSize() const { return queue_.size(); }

    // --- queries -------------------------------------------------------------------
    std::optional<int> WouldTransition(const Act& a) const;
    int Current() const { return cur_; }
    std::uint32_t Ticks() const { return ticks_; }
    /// Decision: TimeInState() is ticks * fixed_dt computed exactly in double
    /// (with the switch off: in float, as README's first version said nothing more).
    double Time() const {
        if (!cfg_.features.time_double) return static_cast<double>(static_cast<float>(ticks_) * cfg_.dt);
        return static_cast<double>(ticks_) * static_cast<double>(cfg_.dt);
    }
    bool Started() const { return started_; }
    int Previous() const { return previous_; }
    int Global() const { return global_; }
    int NextRequest() const { return next_; }
    /// The data a state's hooks log: S7's value, a keyed state's gen, else 0.
    int Data(int state) const;

private:
    friend class ModelHandle;
    struct Change_ {
        int to = kNone;
        std::optional<int> arg;
    };
    struct Request_ {
        int state;
        std::uint32_t ticks_left;
        bool inside;        // in `state` since the request: waits for it to be left
        std::uint32_t seen; // while inside: its ticks when last looked at
    };

    void Start(const Act& a);
    void InitAll();
    void ChangeTo(int to, std::optional<int> arg, const Act& a);
    void EnterRecordedGlobal(const Act& a);
    void StateHook(int s, HookKind kind, const Act& a, bool in_exit, bool global_hook);
    void ActionHook(int s, int slot, const Item& action, HookKind kind, const Act& a, bool in_exit);
    const Edge* Probe(int from, const Act& a, std::uint32_t ticks, bool count) const;
    bool Allowed(int from, int to) const;
    Request_ MakeRequest(int state, float timeout) const;
    bool TryRequest(Request_& r);
    bool TryFront();

    const Config& cfg_;
    Ctrl& ctrl_;
    Mutant mutant_;
    std::vector<const Edge*> edges_[kIndexCount];
    std::vector<const Item*> actions_[kIndexCount];
    int event_to_[kIndexCount][kEventCount];

    bool initialized_ = false;
    bool started_ = false;
    int cur_ = kNone;
    std::uint32_t ticks_ = 0;
    int next_ = kNone;
    int previous_ = kNone;
    int global_ = kNone;
    bool global_entered_ = false;
    int value7_ = 0; // S7's object
    std::optional<Change_> pending_;

    std::optional<Request_> wanted_;
    std::deque<Request_> queue_;
};

} // namespace tickfsm_diff
