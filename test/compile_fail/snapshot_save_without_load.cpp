// Must not compile: a state with a Save hook and no Load hook.
#include <tickfsm/tickfsm.hpp>

struct Hero {};
struct Input {};
struct Charge {
    int level = 0;
    void Save(tickfsm::SnapshotWriter& writer) const { writer.Write(level); }
};

void Configure(tickfsm::StateManager<Hero, Input>& m) {
    m.SetInitialState<Charge>();
}
