// Sample 7: rollback netcode (see rollback.hpp). Two players, 600 ticks; player
// 0's pads reach player 1 three ticks late, player 1's reach player 0 five
// ticks late. Each side predicts, rolls back on a wrong guess and simulates
// again; at the end both must equal the lockstep run. It prints, e.g.
//   600 ticks, pads 3 and 5 ticks late
//   player 0: 83 rollbacks, 415 ticks simulated again
//   player 1: 85 rollbacks, 255 ticks simulated again
//   both sides equal the lockstep run: yes (hp 40 and 40)
// and exits 1 if a side differs from the lockstep run or nothing was rolled back.

#include <cstdio>

#include "common/options.hpp"
#include "common/trace_option.hpp"
#include "rollback/rollback.hpp"

int main(int argc, char** argv) {
    const samples::Options options = samples::ParseOptions("rollback", argc, argv);
    if (options.bad) return 2;
    if (options.show != samples::Show::Run) {
        rollback::Fighter f;
        rollback::FighterStateManager machine(f);
        return samples::PrintMachines(options, {machine.Describe()});
    }
    samples::TraceOption watch(argc, argv); // --trace FILE, --coverage (common/trace_option.hpp)
    constexpr int kTicks = 600;
    const rollback::Session s = rollback::RunSession(kTicks, 3, 5, watch.Get());
    std::printf("%d ticks, pads 3 and 5 ticks late\n", kTicks);
    for (int i = 0; i < 2; ++i)
        std::printf("player %d: %d rollbacks, %d ticks simulated again\n", i, s.rollbacks[static_cast<std::size_t>(i)],
                    s.resimulated[static_cast<std::size_t>(i)]);
    std::printf("both sides equal the lockstep run: %s (hp %d and %d)\n", s.equal ? "yes" : "no", s.hp0, s.hp1);
    const bool rolled = s.rollbacks[0] > 0 && s.rollbacks[1] > 0;
    const bool fought = s.hp0 < 100 || s.hp1 < 100;
    return s.equal && rolled && fought ? 0 : 1;
}
