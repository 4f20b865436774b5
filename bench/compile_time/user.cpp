// A source file that uses a character's machine without configuring it, as
// most of a game's files do. bench/compile_time.sh compiles it as is and with
// -DTICKFSM_BENCH_EXTERN, which adds the TICKFSM_EXTERN_MACHINE line the
// character's header would hold.
#include <tickfsm/tickfsm.hpp>

struct Hero {
    float speed = 0;
    bool grounded = true;
};
struct Pad {
    float stick = 0;
    bool jump = false;
};

#ifdef TICKFSM_BENCH_EXTERN
TICKFSM_EXTERN_MACHINE(Hero, Pad);
#endif

struct Idle {};
struct Run {
    void Perform(Hero& h, const Pad& p) { h.speed = p.stick * 6; }
};

class HeroStateManager : public tickfsm::StateManager<Hero, Pad> {
public:
    explicit HeroStateManager(Hero& hero); // configured in hero_state_manager.cpp
};

bool TickHero(HeroStateManager& m, const Pad& pad) {
    m.Perform(pad);
    if (pad.jump && !m.IsIn<Run>()) m.TrySetState<Run>();
    return m.IsIn<Idle>();
}
