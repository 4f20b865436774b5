// Saving and restoring a crowd of brawlers (spec: the snapshot goals of the
// save/restore issue): bytes per character in the snapshot beside the crowd's
// own, and ns per character and GB/s of SaveInto and Restore beside a plain
// memcpy of the same bytes, in one run. Prints RESULT lines:
//   RESULT snapshot n=<N> bytes_per_char=<b> crowd_bytes_per_char=<c> save_ns=<s> restore_ns=<r> memcpy_ns=<m> save_gbs=<..> restore_gbs=<..> memcpy_gbs=<..>
// Usage: tickfsm_bench_snapshot [--n N] [--reps R]

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "brawler.hpp"
#include "tickfsm_brawler.hpp"

namespace {

double NowNs() {
    return static_cast<double>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
}

template <class F>
double BestNs(int reps, F&& f) {
    double best = 1e300;
    for (int r = 0; r < reps; ++r) {
        const double start = NowNs();
        f();
        best = std::min(best, NowNs() - start);
    }
    return best;
}

} // namespace

int main(int argc, char** argv) {
    std::size_t n = 1000000;
    int reps = 7;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string arg = argv[i];
        if (arg == "--n") n = std::strtoull(argv[i + 1], nullptr, 10);
        else if (arg == "--reps") reps = std::atoi(argv[i + 1]);
    }
    using brawler::Fighter;
    tickfsm::Crowd<brawler::tickfsm_impl::BrawlerStateManager> crowd(n);
    std::vector<Fighter> fighters(n);
    std::vector<std::uint32_t> rng(n);
    for (std::size_t i = 0; i < n; ++i) rng[i] = brawler::Seed(i);
    for (int t = 0; t < 30; ++t)
        for (std::size_t i = 0; i < n; ++i) {
            const brawler::Input in = brawler::DrawInput(rng[i]);
            crowd.Perform(i, fighters[i], in);
            brawler::Physics(fighters[i]);
        }

    tickfsm::Snapshot snapshot = crowd.Save(); // sized once: SaveInto reuses it
    const std::size_t bytes = snapshot.Bytes().size();
    const double save = BestNs(reps, [&] { crowd.SaveInto(snapshot); });
    const double restore = BestNs(reps, [&] { crowd.Restore(snapshot); });
    std::vector<std::byte> copy(bytes);
    const double memcpy_ns = BestNs(reps, [&] {
        std::memcpy(copy.data(), snapshot.Bytes().data(), bytes);
        asm volatile("" : : "r"(copy.data()) : "memory");
    });
    const double crowd_bytes = static_cast<double>(sizeof(tickfsm::detail::Runtime)); // the brawler's states hold no data
    const double nd = static_cast<double>(n);
    std::printf("RESULT snapshot n=%zu bytes_per_char=%.2f crowd_bytes_per_char=%.0f save_ns=%.3f restore_ns=%.3f "
                "memcpy_ns=%.3f save_gbs=%.2f restore_gbs=%.2f memcpy_gbs=%.2f\n",
                n, static_cast<double>(bytes) / nd, crowd_bytes, save / nd, restore / nd, memcpy_ns / nd,
                static_cast<double>(bytes) / save, static_cast<double>(bytes) / restore,
                static_cast<double>(bytes) / memcpy_ns);
    return 0;
}
