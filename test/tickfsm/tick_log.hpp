// A log of what a tick over many characters did, in order: ('M', i) when
// character i's action was made, ('T', i) when character i ticked. Shared by
// the tests of the grouped ticks (crowd.cpp, perform_all.cpp).
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include <tickfsm/state_ref.hpp>

namespace tick_log {

using Log = std::vector<std::pair<char, std::size_t>>;

/// Each character's action made just before it ticked, in index order.
inline void RequireIndexOrder(const Log& log, std::size_t count) {
    REQUIRE(log.size() == 2 * count);
    for (std::size_t i = 0; i < count; ++i) {
        REQUIRE(log[2 * i] == std::pair<char, std::size_t>{'M', i});
        REQUIRE(log[2 * i + 1] == std::pair<char, std::size_t>{'T', i});
    }
}

/// Per block of `block` characters: every action made in index order, then
/// every character ticked, by its state `before` the tick and then by index.
/// Returns whether some block ticked out of index order.
inline bool RequireGroupedBlocks(const Log& log, const std::vector<tickfsm::StateId>& before, std::size_t block) {
    const std::size_t count = before.size();
    REQUIRE(log.size() == 2 * count);
    bool regrouped = false;
    for (std::size_t first = 0; first < count; first += block) {
        const std::size_t size = std::min(block, count - first);
        const auto* at = log.data() + 2 * first;
        for (std::size_t j = 0; j < size; ++j) REQUIRE(at[j] == std::pair<char, std::size_t>{'M', first + j});
        std::vector<std::size_t> expected(size);
        for (std::size_t j = 0; j < size; ++j) expected[j] = first + j;
        std::stable_sort(expected.begin(), expected.end(),
                         [&](std::size_t a, std::size_t b) { return before[a].value < before[b].value; });
        for (std::size_t j = 0; j < size; ++j) {
            REQUIRE(at[size + j] == std::pair<char, std::size_t>{'T', expected[j]});
            regrouped = regrouped || expected[j] != first + j;
        }
    }
    return regrouped;
}

} // namespace tick_log
