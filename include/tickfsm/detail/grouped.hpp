#pragma once
// The loop of TickAll in TickOrder::ByState (Crowd and StaticCrowd): characters in blocks,
// each block's actions made in index order, then its characters ticked
// grouped by state, so that one state's code runs for several characters in a
// row and the CPU predicts the branch that picks it.

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

namespace tickfsm::detail {

/// Characters per block for an action of `action_size` bytes: 256, fewer for
/// an action of more than 8 bytes (the block's actions live on the stack).
constexpr std::size_t GroupBlockFor(std::size_t action_size) noexcept {
    return action_size <= 8 ? 256 : (2048 / action_size > 0 ? 2048 / action_size : 1);
}

/// Fewer characters than this gain nothing from grouping.
inline constexpr std::size_t kGroupMin = 32;
/// Up to this many characters, a Crowd's TickAll runs its common loop inline
/// in the caller; more run it out of line, on a boundary of its own.
inline constexpr std::size_t kInlineTickMax = 16;
/// Groups (states) a block may be sorted into.
inline constexpr std::size_t kGroupMaxBuckets = 257;

/// Ticks characters [0, count): per block of kBlock, `make_action(i)` for each
/// in index order, then `tick(i, action)` for each, ordered by `bucket(i)`
/// (less than `buckets`, at most kGroupMaxBuckets) and then by index.
/// `bucket(i)` is read before any character of the block ticks. kFewUsed: a
/// block uses few of the `buckets` (PerformAllByState's 257, for machines whose
/// state count it does not know), so the loop tracks the highest it uses and
/// sums and clears only up to it; a crowd, whose `buckets` is its state count,
/// does not need the tracking.
template <class Action, std::size_t kBlock, bool kFewUsed, class MakeAction, class Bucket, class Tick>
[[gnu::always_inline]] inline void TickGrouped(std::size_t count, std::size_t buckets, MakeAction&& make_action,
                                               Bucket&& bucket, Tick&& tick) {
    static_assert(kBlock >= 1 && kBlock <= 256, "a block's positions are kept in bytes");
    alignas(Action) std::byte storage[kBlock * sizeof(Action)];
    std::uint16_t bucket_of[kBlock];
    std::uint8_t order[kBlock];
    std::uint16_t next[kGroupMaxBuckets + 1]; // per bucket: where its next character goes in `order`
    for (std::size_t b = 0; b <= buckets; ++b) next[b] = 0;
    for (std::size_t block = 0; block < count; block += kBlock) {
        const std::size_t size = count - block < kBlock ? count - block : kBlock;
        struct Built { // the block's actions, destroyed even if a hook throws
            std::byte* storage;
            std::size_t size = 0;
            Action& operator[](std::size_t j) noexcept {
                return *std::launder(reinterpret_cast<Action*>(storage + j * sizeof(Action)));
            }
            ~Built() {
                if constexpr (!std::is_trivially_destructible_v<Action>)
                    for (std::size_t j = 0; j < size; ++j) (*this)[j].~Action();
            }
        } actions{storage};
        std::size_t top = kFewUsed ? 0 : buckets; // one past the highest bucket of the block
        for (std::size_t j = 0; j < size; ++j, ++actions.size) {
            ::new (static_cast<void*>(storage + j * sizeof(Action))) Action(make_action(block + j));
            const auto b = static_cast<std::uint16_t>(bucket(block + j));
            bucket_of[j] = b;
            ++next[b + 1u];
            if constexpr (kFewUsed) top = b + 1u > top ? b + 1u : top;
        }
        for (std::size_t b = 1; b <= top; ++b) next[b] = static_cast<std::uint16_t>(next[b] + next[b - 1]);
        for (std::size_t j = 0; j < size; ++j) order[next[bucket_of[j]]++] = static_cast<std::uint8_t>(j);
        for (std::size_t b = 0; b <= top; ++b) next[b] = 0;
        for (std::size_t k = 0; k < size; ++k) {
            const std::size_t j = order[k];
            tick(block + j, bucket_of[j], actions[j]);
        }
    }
}

} // namespace tickfsm::detail
