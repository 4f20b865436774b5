#pragma once
// tickfsm::TickOrder: the order in which a crowd's TickAll ticks its characters.

#include <cstdint>

namespace tickfsm {

/// The order of a crowd's `TickAll(controllers, make_action, order)`. Either
/// way every character ticks exactly once, by the tick rules, and
/// `make_action(i, controllers[i])` runs before character i ticks.
enum class TickOrder : std::uint8_t {
    /// Index order, each action made just before its character ticks.
    ByIndex,
    /// For characters that do not read each other during a tick: blocks of up
    /// to 256 characters (fewer for an action of more than 8 bytes); for each
    /// block every action is made in index order, then its characters tick
    /// grouped by current state (by state id, then index), so that one state's
    /// step runs for several characters in a row and the CPU predicts its call.
    /// A crowd of fewer than 32 characters, or one with characters not started
    /// yet or states on the general path, ticks by index. If a hook throws, the
    /// characters after it in that order do not tick. Uses about 4 KB of stack.
    ByState,
};

} // namespace tickfsm
