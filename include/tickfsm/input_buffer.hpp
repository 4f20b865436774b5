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
    explicit InputBuffer(StateManager<Controller, Action>& target) noexcept : machine(&target) {}

    /// Asks for T now; if the machine refuses, keeps asking on each Update for
    /// `timeout_seconds`. Returns whether T was entered now.
    template <class T>
    bool Buffer(float timeout_seconds) {
        if (wanted.state != detail::kNoState) Report(wanted.state, BufferOutcome::Replaced);
        wanted = machine->template BufferRequest<T>("InputBuffer::Buffer", timeout_seconds);
        return TryNow();
    }

    /// Buffer for a keyed state.
    template <class K>
        requires StateKey<K>
    bool Buffer(K key, float timeout_seconds) {
        if (wanted.state != detail::kNoState) Report(wanted.state, BufferOutcome::Replaced);
        wanted = machine->BufferRequestByKey("InputBuffer::Buffer", key, timeout_seconds);
        return TryNow();
    }

    /// One retry; call it once per tick, after the machine's Perform.
    void Update() {
        if (wanted.state == detail::kNoState) return;
        if (TryNow()) return;
        if (--wanted.ticks_left == 0) {
            Report(wanted.state, BufferOutcome::TimedOut);
            wanted = {};
        }
    }

    /// Forgets the buffered request, reporting nothing.
    void Clear() noexcept { wanted = {}; }
    /// True while a request waits.
    bool IsBuffering() const noexcept { return wanted.state != detail::kNoState; }
    /// The state waited for (not Valid() when none).
    StateRef Wanted() const { return machine->RefOf(wanted.state); }

    /// What the buffer holds, as a trivially copyable value to keep beside
    /// its machine's Snapshot (the machine's Save() does not see the buffer).
    struct Saved {
        detail::BufferedRequest wanted; // opaque: the request waiting and its time left
    };
    Saved Save() const noexcept { return {wanted}; }
    /// Puts back what Save() returned; no observer hears of it.
    void Restore(const Saved& saved) noexcept { wanted = saved.wanted; }

private:
    bool TryNow() {
        if (!machine->TryBufferedRequest(wanted)) return false;
        Report(wanted.state, BufferOutcome::Entered);
        wanted = {};
        return true;
    }
    void Report(detail::StateIndex state, BufferOutcome outcome) { machine->ReportBuffered(state, outcome); }

    StateManager<Controller, Action>* machine;
    detail::BufferedRequest wanted;
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
    explicit InputSequenceBuffer(StateManager<Controller, Action>& target) noexcept : machine(&target) {}

    /// Queues T, waiting at most `timeout_seconds` from now. The first request
    /// of an empty buffer is tried at once; returns whether it was entered now.
    template <class T>
    bool Buffer(float timeout_seconds) {
        return Push(machine->template BufferRequest<T>("InputSequenceBuffer::Buffer", timeout_seconds));
    }

    /// Buffer for a keyed state.
    template <class K>
        requires StateKey<K>
    bool Buffer(K key, float timeout_seconds) {
        return Push(machine->BufferRequestByKey("InputSequenceBuffer::Buffer", key, timeout_seconds));
    }

    /// One step; call it once per tick, after the machine's Perform.
    void Update() {
        if (count == 0) return;
        if (TryFront()) return;
        // Count down every request; drop those whose time ran out, keeping order.
        std::size_t kept = 0;
        for (std::size_t i = 0; i < count; ++i) {
            detail::BufferedRequest request = queue[(first + i) % Capacity];
            if (--request.ticks_left == 0) {
                machine->ReportBuffered(request.state, BufferOutcome::TimedOut);
                continue;
            }
            queue[(first + kept++) % Capacity] = request;
        }
        count = kept;
    }

    void Clear() noexcept { count = 0; }
    std::size_t Size() const noexcept { return count; }
    /// The state tried next (not Valid() when empty).
    StateRef Next() const { return machine->RefOf(count ? queue[first].state : detail::kNoState); }

    /// What the buffer holds, as a trivially copyable value to keep beside
    /// its machine's Snapshot (the machine's Save() does not see the buffer).
    struct Saved {
        std::array<detail::BufferedRequest, Capacity> queue; // opaque: the requests in order and their time left
        std::size_t first;
        std::size_t count;
    };
    Saved Save() const noexcept { return {queue, first, count}; }
    /// Puts back what Save() returned; no observer hears of it.
    void Restore(const Saved& saved) noexcept {
        queue = saved.queue;
        first = saved.first % Capacity;
        count = saved.count <= Capacity ? saved.count : Capacity;
    }

private:
    bool Push(detail::BufferedRequest request) {
        if (count == Capacity) {
            machine->ReportBuffered(queue[first].state, BufferOutcome::Replaced);
            Pop();
        }
        queue[(first + count) % Capacity] = request;
        ++count;
        return count == 1 && TryFront();
    }

    bool TryFront() {
        const detail::StateIndex state = queue[first].state;
        if (!machine->TryBufferedRequest(queue[first])) return false;
        machine->ReportBuffered(state, BufferOutcome::Entered);
        Pop();
        return true;
    }
    void Pop() noexcept {
        first = (first + 1) % Capacity;
        --count;
    }

    StateManager<Controller, Action>* machine;
    std::array<detail::BufferedRequest, Capacity> queue{};
    std::size_t first = 0;
    std::size_t count = 0;
};

template <class C, class A>
InputSequenceBuffer(StateManager<C, A>&) -> InputSequenceBuffer<C, A>;

} // namespace tickfsm
