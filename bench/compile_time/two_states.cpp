// The smallest machine a file configures and ticks: two states, one
// transition each way, as the README's first example. bench/compile_time.sh
// compiles it to show what one kind of machine costs a file beyond the
// include.
#include <tickfsm/tickfsm.hpp>

struct Hero {
    float speed = 0;
};
struct Pad {
    float stick = 0;
};

struct Idle {};
struct Run {
    void Perform(Hero& hero, const Pad& pad) { hero.speed = pad.stick * 6.0f; }
};

class HeroStateManager : public tickfsm::StateManager<Hero, Pad> {
public:
    explicit HeroStateManager(Hero& hero) : StateManager(hero) {
        SetInitialState<Idle>().To<Run>([](const Hero&, const Pad& pad) { return pad.stick > 0.1f; });
        From<Run>().To<Idle>([](const Hero&, const Pad& pad) { return pad.stick <= 0.1f; });
    }
};

int main() {
    Hero hero;
    HeroStateManager machine(hero);
    for (int tick = 0; tick < 10; ++tick) machine.Perform(Pad{tick % 4 == 0 ? 1.0f : 0.0f});
    return machine.IsIn<Run>() ? 1 : 0;
}
