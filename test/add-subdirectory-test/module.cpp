// A game module: a shared library of the consumer's own that links tickfsm
// (static or shared) while its project hides symbols by default.
#include <tickfsm/tickfsm.hpp>

struct Lamp {
  bool on = false;
};
struct Switch {
  bool flip = false;
};
struct Off {};
struct On {
  void OnStateEnter(Lamp& l, const Switch&) { l.on = true; }
};

extern "C" __attribute__((visibility("default"))) int RunModule() {
  Lamp lamp;
  tickfsm::StateManager<Lamp, Switch> m(lamp);
  m.SetInitialState<Off>().To<On>([](const Lamp&, const Switch& s) { return s.flip; });
  m.Perform({});
  m.Perform({.flip = true});
  bool refused = false;
  try {
    m.SetInitialState<On>(); // a ConfigError, caught across the module's boundary
  } catch (const tickfsm::ConfigError&) {
    refused = true;
  }
  return lamp.on && m.IsIn<On>() && refused ? 0 : 1;
}
