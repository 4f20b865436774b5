#pragma once
// Input buffers (seed 003): keep trying a state change that was refused for a
// short time, so that an attack pressed during another attack still comes out.

#include <array>
#include <cstddef>
#include <cstdint>

#include "detail/table.hpp"
#include "observer.hpp"
#include "state_manager.hpp"
#include "state_ref.hpp"

namespace tickfsm {

/// Holds one wanted state (the latest request wins) and retries it with
/// TrySetState on each Update until it is entered or its time runs out (in
/// ticks of the machine). Allocates nothing. What happens to each request
/// (entered, replaced, timed out) goes to the machine's observer.
template <class Controller, class Action>
class InputBuffer {
public:
    explicit InputBuffer(StateManager<Controller, Action>& machine) noexcept : machine_(&machine) {}

    /// Asks for T now; if the machine refuses, keeps asking on each Update for
    /// `timeout_seconds`. Returns whether T was entered now.
    template <class T>
    bool Buffer(float timeout_seconds) {
        if (wanted_.state != detail::kNoState) Report(wanted_.state, BufferOutcome::Replaced);
        wanted_ = machine_->Request_(detail::TypeKey<T>(), timeout_seconds);
        return TryNow();
    }

    /// Buffer for a keyed state.
    template <class K>
        requires StateKey<K>
    bool Buffer(K key, float timeout_seconds) {
        if (wanted_.state != detail::kNoState) Report(wanted_.state, BufferOutcome::Replaced);
        wanted_ = machine_->RequestKey_(key, timeout_seconds);
        return TryNow();
    }

    /// One retry; call it once per tick, after the machine's Perform.
    void Update() {
        if (wanted_.state == detail::kNoState) return;
        if (TryNow()) return;
        if (--wanted_.ticks_left == 0) {
            Report(wanted_.state, BufferOutcome::TimedOut);
            wanted_ = {};
        }
    }

    /// Forgets the buffered request, reporting nothing.
    void Clear() noexcept { wanted_ = {}; }
    /// True while a request waits.
    bool IsBuffering() const noexcept { return wanted_.state != detail::kNoState; }
    /// The state waited for (not Valid() when none).
    StateRef Wanted() const { return machine_->Ref_(wanted_.state); }

    /// What the buffer holds, as a trivially copyable value to keep beside
    /// its machine's Snapshot (the machine's Save() does not see the buffer).
    struct Saved {
        detail::BufferedRequest wanted; // opaque: the request waiting and its time left
    };
    Saved Save() const noexcept { return {wanted_}; }
    /// Puts back what Save() returned; no observer hears of it.
    void Restore(const Saved& saved) noexcept { wanted_ = saved.wanted; }

private:
    bool TryNow() {
        if (!machine_->TryRequest_(wanted_.state)) return false;
        Report(wanted_.state, BufferOutcome::Entered);
        wanted_ = {};
        return true;
    }
    void Report(detail::StateIndex state, BufferOutcome outcome) { machine_->ReportBuffered_(state, outcome); }

    StateManager<Controller, Action>* machine_;
    detail::BufferedRequest wanted_;
};

template <class C, class A>
InputBuffer(StateManager<C, A>&) -> InputBuffer<C, A>;

/// Keeps up to `Capacity` requests in order and works through them: on each
/// Update the oldest is tried; once entered, the next one waits its turn. Each
/// request times out on its own. A request beyond capacity replaces the oldest.
template <class Controller, class Action, std::size_t Capacity = 8>
class InputSequenceBuffer {
    static_assert(Capacity > 0, "tickfsm: InputSequenceBuffer needs a capacity of at least 1");

public:
    explicit InputSequenceBuffer(StateManager<Controller, Action>& machine) noexcept : machine_(&machine) {}

    /// Queues T, waiting at most `timeout_seconds` from now. The first request
    /// of an empty buffer is tried at once; returns whether it was entered now.
    template <class T>
    bool Buffer(float timeout_seconds) {
        return Push(machine_->Request_(detail::TypeKey<T>(), timeout_seconds));
    }

    /// Buffer for a keyed state.
    template <class K>
        requires StateKey<K>
    bool Buffer(K key, float timeout_seconds) {
        return Push(machine_->RequestKey_(key, timeout_seconds));
    }

    /// One step; call it once per tick, after the machine's Perform.
    void Update() {
        if (count_ == 0) return;
        if (TryFront()) return;
        // Count down every request; drop those whose time ran out, keeping order.
        std::size_t kept = 0;
        for (std::size_t i = 0; i < count_; ++i) {
            detail::BufferedRequest request = queue_[(first_ + i) % Capacity];
            if (--request.ticks_left == 0) {
                machine_->ReportBuffered_(request.state, BufferOutcome::TimedOut);
                continue;
            }
            queue_[(first_ + kept++) % Capacity] = request;
        }
        count_ = kept;
    }

    void Clear() noexcept { count_ = 0; }
    std::size_t Size() const noexcept { return count_; }
    /// The state tried next (not Valid() when empty).
    StateRef Next() const { return machine_->Ref_(count_ ? queue_[first_].state : detail::kNoState); }

    /// What the buffer holds, as a trivially copyable value to keep beside
    /// its machine's Snapshot (the machine's Save() does not see the buffer).
    struct Saved {
        std::array<detail::BufferedRequest, Capacity> queue; // opaque: the requests in order and their time left
        std::size_t first;
        std::size_t count;
    };
    Saved Save() const noexcept { return {queue_, first_, count_}; }
    /// Puts back what Save() returned; no observer hears of it.
    void Restore(const Saved& saved) noexcept {
        queue_ = saved.queue;
        first_ = saved.first % Capacity;
        count_ = saved.count <= Capacity ? saved.count : Capacity;
    }

private:
    bool Push(detail::BufferedRequest request) {
        if (count_ == Capacity) {
            machine_->ReportBuffered_(queue_[first_].state, BufferOutcome::Replaced);
            Pop();
        }
        queue_[(first_ + count_) % Capacity] = request;
        ++count_;
        return count_ == 1 && TryFront();
    }

    bool TryFront() {
        const detail::StateIndex state = queue_[first_].state;
        if (!machine_->TryRequest_(state)) return false;
        machine_->ReportBuffered_(state, BufferOutcome::Entered);
        Pop();
        return true;
    }
    void Pop() noexcept {
        first_ = (first_ + 1) % Capacity;
        --count_;
    }

    StateManager<Controller, Action>* machine_;
    std::array<detail::BufferedRequest, Capacity> queue_{};
    std::size_t first_ = 0;
    std::size_t count_ = 0;
};

template <class C, class A>
InputSequenceBuffer(StateManager<C, A>&) -> InputSequenceBuffer<C, A>;

} // namespace tickfsm
