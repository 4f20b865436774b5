// Minimal tickfsm consumer: a two-state machine that must end up in Open.
#include <tickfsm/tickfsm.hpp>

struct Door {
  bool open_requested = false;
};
struct Input {};

struct Closed {};
struct Open {
  void OnStateEnter(Door& d, const Input&) { d.open_requested = false; }
};

class DoorStateManager : public tickfsm::StateManager<Door, Input> {
 public:
  explicit DoorStateManager(Door& d) : StateManager(d) {
    SetInitialState<Closed>().To<Open>([](const Door& dd) { return dd.open_requested; });
  }
};

int main() {
  Door d;
  DoorStateManager m(d);
  m.Perform({});
  d.open_requested = true;
  m.Perform({});
  return m.IsIn<Open>() ? 0 : 1;
}
