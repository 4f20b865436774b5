#pragma once
// tickfsm::Ensemble: several machines that run one character together
// (movement, sensing and reaction of one AI), ticked in a declared order by
// one call, sending each other events through bounded mailboxes.

#include <cstddef>
#include <new>
#include <string_view>
#include <type_traits>
#include <utility>

#include "detail/owned.hpp"
#include "list.hpp"
#include "text.hpp"
#include "config_error.hpp"
#include "detail/format.hpp"
#include "detail/table.hpp"
#include "event.hpp"
#include "state_manager.hpp"

namespace tickfsm {

/// Machines of one controller and action type, ticked together. Each has a
/// mailbox of `kMailCapacity` events. The delivery rule: an event posted to a
/// machine is sent to it (SendEvent, with the tick's action) at the start of
/// its next tick in Perform, before its transitions are tried, in the order
/// posted; so an event posted by a machine ticked earlier in the same
/// Perform arrives in that same Perform, and one posted to a machine ticked
/// already (or to itself) arrives in the next. A machine not started yet
/// receives the events that waited for it right after its first tick (which
/// starts it); those it posts to itself in that tick arrive in the next.
/// Posting to a full mailbox is a ConfigError. Mailboxes are in no snapshot
/// (see ClearMail). Ticking and delivering allocate nothing.
template <class Controller, class Action, std::size_t kMailCapacity = 16>
class Ensemble {
    static_assert(kMailCapacity > 0, "tickfsm: Ensemble<Controller, Action, kMailCapacity>: a mailbox of 0 events "
                                     "refuses every Post; give kMailCapacity of at least 1 (or omit it: 16)");

public:
    /// The room a typed event's value may take in a mailbox.
    static constexpr std::size_t kPayloadBytes = 64;

    Ensemble() = default;
    Ensemble(const Ensemble&) = delete;
    Ensemble& operator=(const Ensemble&) = delete;
    ~Ensemble() { ClearMail(); }

    /// Adds `machine` (which must outlive the ensemble) under `name` (copied), ticked
    /// after every machine added before it; returns its index for Post. Not
    /// from a hook during this ensemble's Perform (a ConfigError).
    std::size_t Add(StateManager<Controller, Action>& machine, std::string_view name) {
        if (ticking) Fail(detail::MessageText(detail::Message::EnsembleAddInTick, name));
        for (const auto& member : members)
            if (member->machine == &machine)
                Fail(detail::MessageText(detail::Message::EnsembleAddTwice, name, member->name));
        auto member = detail::MakeOwned<Member>();
        member->machine = &machine;
        member->name = name;
        members.push_back(std::move(member)); // its own allocation: letters never move
        return members.size() - 1;
    }

    /// One tick of every machine, in the order added: each first receives
    /// the events posted to it (see the delivery rule above), then performs.
    /// Not from a hook during this ensemble's Perform (a ConfigError).
    void Perform(const Action& action) {
        if (ticking) Fail(detail::MessageText(detail::Message::EnsemblePerformInTick));
        struct Ticking { // the machines' hooks may Post, not Add or Perform
            bool& flag;
            explicit Ticking(bool& f) : flag(f) { flag = true; }
            ~Ticking() { flag = false; }
            Ticking(const Ticking&) = delete;
            Ticking& operator=(const Ticking&) = delete;
        } scope{ticking};
        for (auto& held : members) {
            Member& member = *held;
            if (member.machine->IsStarted()) {
                Deliver(member, action, member.count);
                member.machine->Perform(action);
            } else { // nothing to receive events yet: its first tick starts it
                const std::size_t due = member.count; // what it posts itself now waits for its next tick
                member.machine->Perform(action);
                Deliver(member, action, due);
            }
        }
    }

    /// Posts a named or enum event to machine `to` (its index from Add).
    void Post(std::size_t to, const Event& event) {
        Letter& letter = Slot(to, detail::EventText(event));
        letter.event = event;
        letter.deliver = [](StateManager<Controller, Action>& m, Letter& l, const Action& a) {
            m.SendEvent(l.event, a);
        };
        letter.move = nullptr;
        ++members[to]->count;
    }

    /// Posts a typed event, a value of class E of at most kPayloadBytes, to
    /// machine `to`; it is copied into the mailbox.
    template <class E>
        requires detail::TypedEventValue<E>
    void Post(std::size_t to, const E& value) {
        static_assert(sizeof(E) <= kPayloadBytes && alignof(E) <= alignof(std::max_align_t),
                      "tickfsm: Ensemble::Post(to, value): a typed event posted to a mailbox is kept in 64 bytes; "
                      "post a smaller value (an index, a pointer) or send it to the machine directly");
        static_assert(std::is_copy_constructible_v<E>, "tickfsm: Ensemble::Post(to, value): the value is copied");
        Letter& letter = Slot(to, detail::TypeName<E>());
        ::new (static_cast<void*>(letter.payload)) E(value); // if the copy throws, nothing was posted
        letter.drop = [](std::byte* p) noexcept { std::launder(reinterpret_cast<E*>(p))->~E(); };
        letter.move = [](std::byte* source, std::byte* target) {
            E& held = *std::launder(reinterpret_cast<E*>(source));
            if constexpr (std::is_nothrow_move_constructible_v<E>)
                ::new (static_cast<void*>(target)) E(std::move(held));
            else
                ::new (static_cast<void*>(target)) E(held);
        };
        letter.deliver = [](StateManager<Controller, Action>& m, Letter& l, const Action& a) {
            m.SendEvent(*std::launder(reinterpret_cast<const E*>(l.payload)), a);
        };
        ++members[to]->count;
    }

    /// Drops every waiting event of every machine, destroying typed values.
    /// Mailboxes are in no snapshot: after restoring the machines of a
    /// rollback, call this and post again what the replay needs (or take the
    /// snapshots when no machine has mail waiting).
    void ClearMail() noexcept {
        for (auto& member : members) {
            while (member->count > 0) {
                member->At(0).Drop();
                member->PopFront();
            }
            member->first = 0;
        }
    }

    /// How many events wait in machine `index`'s mailbox.
    std::size_t Waiting(std::size_t index) const { return MemberAt(index, "Waiting").count; }
    /// The number of machines.
    std::size_t Size() const noexcept { return members.size(); }
    /// Machine `index` as added.
    StateManager<Controller, Action>& At(std::size_t index) const { return *MemberAt(index, "At").machine; }

private:
    struct Letter {
        Event event;
        void (*deliver)(StateManager<Controller, Action>&, Letter&, const Action&) = nullptr;
        void (*drop)(std::byte*) noexcept = nullptr;
        void (*move)(std::byte* from, std::byte* to) = nullptr; // a typed value into another letter
        alignas(std::max_align_t) std::byte payload[kPayloadBytes];
        void Drop() noexcept {
            if (drop) drop(payload);
            drop = nullptr;
        }
    };
    struct Member {
        StateManager<Controller, Action>* machine = nullptr;
        Text name; // a copy: the caller's string may be a temporary
        Letter box[kMailCapacity > 0 ? kMailCapacity : 1]; // a ring: `count` letters from `first`
        std::size_t first = 0;
        std::size_t count = 0;
        Letter& At(std::size_t i) noexcept { return box[(first + i) % kMailCapacity]; }
        void PopFront() noexcept {
            first = (first + 1) % kMailCapacity;
            --count;
        }
    };

    /// Sends `member` the first `due` events waiting for it, in the order
    /// posted. Each leaves the mailbox before it is sent: a hook that posts
    /// to this machine while it receives adds behind, for its next tick, and
    /// finds the room of the letters taken out.
    static void Deliver(Member& member, const Action& action, std::size_t due) {
        for (std::size_t i = 0; i < due && member.count > 0; ++i) {
            Letter taken;
            Letter& front = member.At(0);
            taken.event = front.event;
            taken.deliver = front.deliver;
            if (front.move) front.move(front.payload, taken.payload); // if this throws, the letter stays
            taken.drop = front.drop;
            front.Drop();
            member.PopFront();
            struct Done { // the value goes even if its delivery throws
                Letter& letter;
                ~Done() { letter.Drop(); }
            } done{taken};
            taken.deliver(*member.machine, taken, action);
        }
    }

    /// Machine `index`'s member, refused with a ConfigError naming `call` if there is none.
    Member& MemberAt(std::size_t index, std::string_view call) const {
        if (index >= members.size())
            Fail(detail::MessageText(detail::Message::EnsembleNoMachine, call, index, index, members.size()));
        return *members[index];
    }

    /// Reports `what` as a ConfigError of this kind of character, as its machines name it.
    [[noreturn]] static void Fail(std::string_view what) {
        detail::ReportConfigError(detail::KindMessage(
            detail::MessageText(detail::Message::StateManagerName, detail::TypeName<Controller>(),
                                detail::TypeName<Action>()),
            what));
    }

    /// The next free letter of machine `to`'s mailbox, counted by the caller
    /// once filled.
    Letter& Slot(std::size_t to, std::string_view what) {
        Member& member = MemberAt(to, "Post");
        if (member.count == kMailCapacity)
            Fail(detail::MessageText(detail::Message::EnsembleMailboxFull, to, what, member.name, kMailCapacity));
        Letter& letter = member.box[(member.first + member.count) % kMailCapacity];
        letter.drop = nullptr;
        return letter;
    }

    List<detail::Owned<Member>> members;
    bool ticking = false; // inside Perform
};

} // namespace tickfsm
