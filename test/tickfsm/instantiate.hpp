// A machine whose shared code is compiled once, in instantiate_definitions.cpp:
// the header a game would write for one kind of character.
#pragma once

#include <tickfsm/tickfsm.hpp>

namespace instantiate_test {

struct Turret {
    int shots = 0;
    int heat = 0;
};
struct Aim {
    bool target = false;
};

struct Watch {
    void Perform(Turret& t, const Aim&) { t.heat = t.heat > 0 ? t.heat - 1 : 0; }
};
struct Fire {
    void Perform(Turret& t, const Aim&) {
        ++t.shots;
        t.heat += 3;
    }
};
struct Cool {};

/// Configured in instantiate_definitions.cpp, like a constructor kept out of a header.
class TurretStateManager : public tickfsm::StateManager<Turret, Aim> {
public:
    explicit TurretStateManager(Turret& turret);
};

/// An action without a default constructor.
struct Order {
    explicit Order(int v) : value(v) {}
    int value;
};

} // namespace instantiate_test

TICKFSM_EXTERN_MACHINE(instantiate_test::Turret, instantiate_test::Aim);
TICKFSM_EXTERN_MACHINE(instantiate_test::Turret, instantiate_test::Order);
