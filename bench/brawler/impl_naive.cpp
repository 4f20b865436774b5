// `naive`: seed 001's C# StateManager ported literally to C++, one manager per agent.
#include <algorithm>
#include <functional>
#include <typeindex>
#include <typeinfo>
#include <unordered_map>
#include <utility>
#include <vector>

#include "brawler.hpp"
#include "impl.hpp"

namespace {
namespace seed001 {

template <class TStateController, class TAction>
class IState {
 public:
  virtual ~IState() = default;
  TStateController* StateController = nullptr;
  float TimeInState = 0;
  std::uint32_t TicksInState = 0;  // TimeInState is derived from it (brawler.hpp)

  virtual void OnStateEnter(TAction& action) = 0;
  virtual void Perform(TAction& action) = 0;
  virtual void OnStateExit(TAction& action) = 0;
};

template <class TStateController, class TAction>
struct StateContainer;

template <class TStateController, class TAction>
struct StateTransition {
  std::function<bool(TStateController&, TAction&, float)> Condition;
  StateContainer<TStateController, TAction>* Container;
};

template <class TStateController, class TAction>
struct StateContainer {
  explicit StateContainer(std::unique_ptr<IState<TStateController, TAction>> state)
      : State(std::move(state)) {}
  std::unique_ptr<IState<TStateController, TAction>> State;
  std::vector<StateTransition<TStateController, TAction>> Transitions;
};

template <class TController, class TAction>
class StateManager;

template <class TController, class TAction>
class TransitionConfiguration {
 public:
  using Condition = std::function<bool(TController&, TAction&, float)>;

  TransitionConfiguration(StateManager<TController, TAction>& factory,
                          StateContainer<TController, TAction>* container)
      : factory_(factory), container_(container) {}

  template <class TState>
  TransitionConfiguration& To(Condition condition) {
    container_->Transitions.push_back(
        {std::move(condition), factory_.template GetContainer<TState>()});
    return *this;
  }

 private:
  StateManager<TController, TAction>& factory_;
  StateContainer<TController, TAction>* container_;
};

// IStateFactory is dropped: C++ cannot make member templates virtual.
template <class TController, class TAction>
class StateManager {
 public:
  using Container = StateContainer<TController, TAction>;
  using Transition = StateTransition<TController, TAction>;

  explicit StateManager(TController& controller) : controller_(&controller) {}

  IState<TController, TAction>* CurrentState() const { return current_->State.get(); }

  void Perform(TAction& action) {
    if (current_ == nullptr) return;
    Container* current = current_;
    ++current->State->TicksInState;
    current->State->TimeInState = brawler::TimeInState(current->State->TicksInState);

    auto child = std::find_if(
        current->Transitions.begin(), current->Transitions.end(), [&](const Transition& t) {
          return t.Condition(*controller_, action, current->State->TimeInState);
        });
    if (child != current->Transitions.end()) {
      current = child->Container;
      current_->State->OnStateExit(action);
      current_ = current;
      current_->State->TimeInState = 0;
      current_->State->TicksInState = 0;
      current_->State->OnStateEnter(action);
    }

    current_->State->Perform(action);
  }

  template <class TState>
  TransitionConfiguration<TController, TAction> SetInitialState() {
    State<TState>();
    root_ = states_.at(typeid(TState)).get();
    current_ = root_;
    return TransitionConfiguration<TController, TAction>(*this, root_);
  }

  template <class TState>
  TransitionConfiguration<TController, TAction> From() {
    State<TState>();
    return TransitionConfiguration<TController, TAction>(*this, states_.at(typeid(TState)).get());
  }

  template <class TState>
  TState* State() {
    if (auto it = states_.find(typeid(TState)); it != states_.end()) {
      return dynamic_cast<TState*>(it->second->State.get());
    }
    auto state = std::make_unique<TState>();
    state->StateController = controller_;
    TState* result = state.get();
    states_.emplace(typeid(TState), std::make_unique<Container>(std::move(state)));
    return result;
  }

  template <class TState>
  Container* GetContainer() {
    State<TState>();
    return states_.at(typeid(TState)).get();
  }

 private:
  TController* controller_;
  Container* root_ = nullptr;
  Container* current_ = nullptr;
  std::unordered_map<std::type_index, std::unique_ptr<Container>> states_;
};

}  // namespace seed001

using brawler::Fighter;
using brawler::Input;
using BrawlerState = seed001::IState<Fighter, Input>;

class IdleState : public BrawlerState {
 public:
  void OnStateEnter(Input&) override {}
  void Perform(Input& a) override { brawler::IdlePerform(*StateController, a); }
  void OnStateExit(Input&) override {}
};
class RunState : public BrawlerState {
 public:
  void OnStateEnter(Input&) override {}
  void Perform(Input& a) override { brawler::RunPerform(*StateController, a); }
  void OnStateExit(Input&) override {}
};
class JumpState : public BrawlerState {
 public:
  void OnStateEnter(Input& a) override { brawler::JumpEnter(*StateController, a); }
  void Perform(Input& a) override { brawler::JumpPerform(*StateController, a); }
  void OnStateExit(Input&) override {}
};
class FallState : public BrawlerState {
 public:
  void OnStateEnter(Input&) override {}
  void Perform(Input& a) override { brawler::FallPerform(*StateController, a); }
  void OnStateExit(Input&) override {}
};
class LandState : public BrawlerState {
 public:
  void OnStateEnter(Input&) override {}
  void Perform(Input& a) override { brawler::LandPerform(*StateController, a); }
  void OnStateExit(Input&) override {}
};
class AttackState : public BrawlerState {
 public:
  void OnStateEnter(Input& a) override { brawler::AttackEnter(*StateController, a); }
  void Perform(Input& a) override { brawler::AttackPerform(*StateController, a); }
  void OnStateExit(Input&) override {}
};
class HurtState : public BrawlerState {
 public:
  void OnStateEnter(Input& a) override { brawler::HurtEnter(*StateController, a); }
  void Perform(Input&) override {}
  void OnStateExit(Input&) override {}
};
class DeadState : public BrawlerState {
 public:
  void OnStateEnter(Input&) override {}
  void Perform(Input&) override {}
  void OnStateExit(Input& a) override { brawler::DeadExit(*StateController, a); }
};

class BrawlerStateManager : public seed001::StateManager<Fighter, Input> {
 public:
  explicit BrawlerStateManager(Fighter& controller) : StateManager(controller) {
    using namespace brawler;
    SetInitialState<IdleState>()
        .To<HurtState>([](Fighter& c, Input& a, float t) { return Hit(c, a, t); })
        .To<JumpState>([](Fighter& c, Input& a, float t) { return CanJump(c, a, t); })
        .To<AttackState>([](Fighter& c, Input& a, float t) { return CanAttack(c, a, t); })
        .To<RunState>([](Fighter& c, Input& a, float t) { return Moving(c, a, t); })
        .To<FallState>([](Fighter& c, Input& a, float t) { return Airborne(c, a, t); });
    From<RunState>()
        .To<HurtState>([](Fighter& c, Input& a, float t) { return Hit(c, a, t); })
        .To<JumpState>([](Fighter& c, Input& a, float t) { return CanJump(c, a, t); })
        .To<AttackState>([](Fighter& c, Input& a, float t) { return CanAttack(c, a, t); })
        .To<IdleState>([](Fighter& c, Input& a, float t) { return Still(c, a, t); })
        .To<FallState>([](Fighter& c, Input& a, float t) { return Airborne(c, a, t); });
    From<JumpState>()
        .To<HurtState>([](Fighter& c, Input& a, float t) { return Hit(c, a, t); })
        .To<FallState>([](Fighter& c, Input& a, float t) { return Descending(c, a, t); });
    From<FallState>()
        .To<HurtState>([](Fighter& c, Input& a, float t) { return Hit(c, a, t); })
        .To<LandState>([](Fighter& c, Input& a, float t) { return Grounded(c, a, t); });
    From<LandState>().To<IdleState>(
        [](Fighter& c, Input& a, float t) { return LandDone(c, a, t); });
    From<AttackState>()
        .To<HurtState>([](Fighter& c, Input& a, float t) { return Hit(c, a, t); })
        .To<IdleState>([](Fighter& c, Input& a, float t) { return AttackDone(c, a, t); });
    From<HurtState>()
        .To<DeadState>([](Fighter& c, Input& a, float t) { return NoHp(c, a, t); })
        .To<IdleState>([](Fighter& c, Input& a, float t) { return HurtDone(c, a, t); });
    From<DeadState>().To<IdleState>(
        [](Fighter& c, Input& a, float t) { return DeadDone(c, a, t); });
  }
};

int StateIndex(const BrawlerState& s) {
  const std::type_index kTypes[] = {typeid(IdleState), typeid(RunState),    typeid(JumpState),
                                    typeid(FallState), typeid(LandState),   typeid(AttackState),
                                    typeid(HurtState), typeid(DeadState)};
  const std::type_index type = typeid(s);
  for (int i = 0; i < brawler::kStateCount; ++i) {
    if (kTypes[i] == type) return i;
  }
  return -1;
}

class NaiveImpl final : public brawler::ImplBase<NaiveImpl> {
 public:
  explicit NaiveImpl(std::size_t n) : fighters_(n), rng_(n) {
    for (std::size_t i = 0; i < n; ++i) rng_[i] = brawler::Seed(i);
    managers_.reserve(n);
    const std::size_t heap = brawler::HeapBytesDuring([&] {
      for (std::size_t i = 0; i < n; ++i) managers_.emplace_back(fighters_[i]);
    });
    bytes_per_agent_ = sizeof(BrawlerStateManager) + (n > 0 ? heap / n : 0);
  }

  void Tick() override {
    const std::size_t n = fighters_.size();
    for (std::size_t i = 0; i < n; ++i) {
      Input in = brawler::DrawInput(rng_[i]);
      brawler::Physics(fighters_[i]);
      managers_[i].Perform(in);
    }
  }

  brawler::Checksum Sum() const override {
    brawler::Checksum c;
    for (std::size_t i = 0; i < fighters_.size(); ++i) {
      brawler::Accumulate(c, StateIndex(*managers_[i].CurrentState()), fighters_[i]);
    }
    return c;
  }

  std::size_t MachineBytesPerAgent() const override { return bytes_per_agent_; }

 private:
  std::vector<Fighter> fighters_;
  std::vector<std::uint32_t> rng_;
  std::vector<BrawlerStateManager> managers_;
  std::size_t bytes_per_agent_ = 0;
};

std::unique_ptr<brawler::Impl> MakeNaive(std::size_t n) { return std::make_unique<NaiveImpl>(n); }

}  // namespace

extern const brawler::ImplInfo kNaiveImpl{"naive", &MakeNaive, false};
