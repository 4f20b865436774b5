// The one source file that compiles what TICKFSM_EXTERN_MACHINE left out of the others.

#include "instantiate.hpp"

TICKFSM_INSTANTIATE_MACHINE(instantiate_test::Turret, instantiate_test::Aim);
// Explicit instantiation compiles every member: this one proves it needs no Action{}.
TICKFSM_INSTANTIATE_MACHINE(instantiate_test::Turret, instantiate_test::Order);

namespace instantiate_test {

TurretStateManager::TurretStateManager(Turret& turret) : StateManager(turret) {
    SetInitialState<Watch>().To<Fire>([](const Turret&, const Aim& a) { return a.target; });
    From<Fire>().To<Cool>([](const Turret& t) { return t.heat >= 9; });
    From<Cool>().To<Watch>([](const Turret&, const Aim&, float t) { return t >= 0.05f; });
}

} // namespace instantiate_test
