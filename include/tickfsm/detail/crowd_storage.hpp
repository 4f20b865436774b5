#pragma once
// A Crowd's storage growing for new characters (the constructor and Add):
// cold code, out of the tick's way. Included by crowd.hpp.

#include <cstddef>
#include <cstring>

#include "../crowd.hpp"

namespace tickfsm {

// Storage that is full grows to at least twice its room, so that characters
// added one at a time are moved a few times in all, not once per Add.
template <class Manager>
void Crowd<Manager>::Grow(std::size_t count) {
    const std::size_t old = runtimes.size();
    // Reserved first, so that nothing below throws once the data moved.
    detail::ReserveRuntimes(runtimes, count);
    if (table->uses_machine) detail::ReserveStates(next_states, count);
    if (table->keep_previous) detail::ReserveStates(previous_states, count);
    if (data_stride != 0) {
        const bool moves = count > data_room;
        const std::size_t room = count > 2 * data_room ? count : 2 * data_room;
        std::byte* const data = moves ? Allocate(room) : state_data;
        struct Undo { // a state constructor that throws leaves the crowd as it was
            const Crowd& crowd;
            std::byte* data;
            bool owned;
            std::size_t first, built;
            ~Undo() {
                if (!data) return;
                crowd.Destroy(first, built, data);
                if (owned) crowd.Free(data);
            }
        } undo{*this, data, moves, old, old};
        if (!moves && count > old) // slots a Remove left: zeroed as a new block is
            std::memset(data + old * data_stride, 0, (count - old) * data_stride);
        for (std::size_t i = old; i < count; ++i, ++undo.built)
            for (const auto& item : table->items)
                item.construct(data + i * data_stride + item.offset, item.prototype.get());
        undo.data = nullptr;
        if (moves) {
            // noexcept, as Remove's move: a state whose move constructor
            // throws ends the program rather than leave characters half
            // moved, whose objects the crowd would destroy twice.
            [&]() noexcept {
                for (std::size_t i = 0; i < old; ++i)
                    for (const auto& item : table->items)
                        item.relocate(data + i * data_stride + item.offset,
                                      state_data + i * data_stride + item.offset);
            }();
            Free(state_data);
            state_data = data;
            data_room = room;
        }
    }
    detail::ResizeRuntimes(runtimes, count);
    population = count;
    Recount(checks + (count - old));
    if (table->uses_machine) detail::ResizeStates(next_states, count);
    if (table->keep_previous) detail::ResizeStates(previous_states, count);
}

} // namespace tickfsm
