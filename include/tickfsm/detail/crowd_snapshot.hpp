#pragma once
// A Crowd's snapshots (Save and Restore of every character or of one): cold
// code, out of the tick's way. Included by crowd.hpp.

#include <cstddef>
#include <cstring>

#include "../crowd.hpp"
#include "../snapshot.hpp"

namespace tickfsm {

template <class Manager>
void Crowd<Manager>::SaveAll(Snapshot& snapshot) const {
    CheckNotTicking("Save");
    const detail::SnapshotLayout layout = table->Layout();
    detail::CheckSavable(layout, &FailSnapshot);
    List<std::byte>& out = detail::SnapshotAccess::Bytes(snapshot);
    const std::size_t count = runtimes.size();
    detail::BeginSnapshot(out, layout, detail::SnapshotKind::Crowd, static_cast<std::uint32_t>(count));
    const SnapshotHead head{Bulk(), !next_states.empty(), !previous_states.empty(), 0, static_cast<std::uint32_t>(data_stride)};
    detail::AppendBytes(out, &head, sizeof(head));
    if (head.bulk) {
        detail::ReserveMore(out, count * (sizeof(detail::Runtime) + data_stride + 4));
        detail::AppendBytes(out, runtimes.data(), count * sizeof(detail::Runtime));
        if (head.has_next) detail::AppendBytes(out, next_states.data(), count * sizeof(detail::StateIndex));
        if (head.has_previous) detail::AppendBytes(out, previous_states.data(), count * sizeof(detail::StateIndex));
        if (data_stride != 0) detail::AppendBytes(out, state_data, count * data_stride);
    } else {
        for (std::size_t i = 0; i < count; ++i)
            detail::WriteCharacter(out, layout, runtimes[i], NextOf(i), PreviousOf(i), state_data + i * data_stride);
    }
    detail::EndSnapshot(out);
}

template <class Manager>
void Crowd<Manager>::RestoreAll(const Snapshot& snapshot) {
    CheckNotTicking("Restore");
    const detail::SnapshotLayout layout = table->Layout();
    const std::size_t count = runtimes.size();
    detail::SnapshotCursor cursor =
        detail::OpenSnapshot(detail::SnapshotAccess::Bytes(snapshot), layout, detail::SnapshotKind::Crowd,
                             static_cast<std::uint32_t>(count), &FailSnapshot);
    SnapshotHead head;
    std::memcpy(&head, detail::TakeBytes(cursor, sizeof(head), &FailSnapshot), sizeof(head));
    if (head.bulk != Bulk() || head.has_next != !next_states.empty() || head.has_previous != !previous_states.empty() ||
        head.stride != data_stride)
        FailSnapshot(detail::MessageText(detail::Message::RestoreCrowdLayout));
    // Everything is checked before anything changes.
    std::size_t unstarted = 0;
    if (head.bulk) {
        const std::size_t ids = count * ((head.has_next ? 1 : 0) + (head.has_previous ? 1 : 0));
        const std::byte* saved_runtimes = detail::TakeBytes(cursor, count * sizeof(detail::Runtime), &FailSnapshot);
        const std::byte* requests = detail::TakeBytes(cursor, ids * sizeof(detail::StateIndex), &FailSnapshot);
        const std::byte* data = detail::TakeBytes(cursor, count * data_stride, &FailSnapshot);
        // Every field is checked before use: the checksum finds corruption, not forgery.
        const std::size_t states = layout.names.size();
        std::size_t bad = 0;
        for (std::size_t i = 0; i < ids; ++i) {
            detail::StateIndex id;
            std::memcpy(&id, requests + i * sizeof(id), sizeof(id));
            bad += id >= states && id != detail::kNoState;
        }
        if (bad != 0) FailSnapshot(detail::MessageText(detail::Message::RestoreStateOutOfRange));
        unstarted = 0;
        for (std::size_t i = 0; i < count; ++i) {
            detail::Runtime rt;
            std::memcpy(&rt, saved_runtimes + i * sizeof(rt), sizeof(rt));
            detail::StateIndex next = detail::kNoState, previous = detail::kNoState;
            if (head.has_next) std::memcpy(&next, requests + i * sizeof(next), sizeof(next));
            if (head.has_previous)
                std::memcpy(&previous, requests + ((head.has_next ? count : 0) + i) * sizeof(previous),
                            sizeof(previous));
            detail::CheckRuntime(layout, rt, next, previous, true, &FailSnapshot);
            for (std::size_t k = 0; k < layout.item_count; ++k)
                if (layout.items[k].role != detail::ItemRole::Object)
                    detail::CheckItem(layout, layout.items[k], data + i * data_stride + layout.items[k].offset,
                                      &FailSnapshot);
            unstarted += (rt.flags & detail::kStarted) == 0;
        }
        if (count != 0) std::memcpy(runtimes.data(), saved_runtimes, count * sizeof(detail::Runtime));
        if (head.has_next && count != 0) std::memcpy(next_states.data(), requests, count * sizeof(detail::StateIndex));
        if (head.has_previous && count != 0)
            std::memcpy(previous_states.data(), requests + (head.has_next ? count * sizeof(detail::StateIndex) : 0),
                        count * sizeof(detail::StateIndex));
        if (data_stride != 0 && count != 0) std::memcpy(state_data, data, count * data_stride);
    } else {
        detail::SnapshotCursor check = cursor;
        for (std::size_t i = 0; i < count; ++i) detail::CheckCharacter(check, layout, true, &FailSnapshot);
        for (std::size_t i = 0; i < count; ++i) ReadOne(cursor, layout, i);
        unstarted = 0;
        for (const detail::Runtime& rt : runtimes) unstarted += !(rt.flags & detail::kStarted);
    }
    Recount((table->all_fast ? 0 : 1) + unstarted);
}

template <class Manager>
void Crowd<Manager>::ReadOne(detail::SnapshotCursor& cursor, const detail::SnapshotLayout& layout, std::size_t i) {
    detail::StateIndex next = detail::kNoState, previous = detail::kNoState;
    detail::ReadCharacter(cursor, layout, runtimes[i], next, previous, state_data + i * data_stride,
                          &FailSnapshot);
    if (!next_states.empty()) next_states[i] = next;
    if (!previous_states.empty()) previous_states[i] = previous;
}

template <class Manager>
void Crowd<Manager>::SaveOne(std::size_t i, Snapshot& snapshot) const {
    CheckIndex(i, "Save");
    CheckNotTicking("Save");
    const detail::SnapshotLayout layout = table->Layout();
    detail::CheckSavable(layout, &FailSnapshot);
    List<std::byte>& out = detail::SnapshotAccess::Bytes(snapshot);
    detail::BeginSnapshot(out, layout, detail::SnapshotKind::Character, 1);
    detail::WriteCharacter(out, layout, runtimes[i], NextOf(i), PreviousOf(i), state_data + i * data_stride);
    detail::EndSnapshot(out);
}

template <class Manager>
void Crowd<Manager>::RestoreOne(std::size_t i, const Snapshot& snapshot) {
    CheckIndex(i, "Restore");
    CheckNotTicking("Restore");
    const detail::SnapshotLayout layout = table->Layout();
    detail::SnapshotCursor cursor = detail::OpenSnapshot(detail::SnapshotAccess::Bytes(snapshot), layout,
                                                         detail::SnapshotKind::Character, 1, &FailSnapshot);
    detail::SnapshotCursor check = cursor;
    detail::CheckCharacter(check, layout, true, &FailSnapshot);
    const bool was_started = runtimes[i].flags & detail::kStarted;
    ReadOne(cursor, layout, i);
    const bool started = runtimes[i].flags & detail::kStarted;
    if (was_started != started) Recount(started ? checks - 1 : checks + 1);
}

} // namespace tickfsm
