// check::CreditModel over the checker's own Semantics: the state is the checker's state
// vector, of which only the pipe words move (no program counter ever advances).
#include "ts/check/credit_model.hpp"

#include <algorithm>

#include "semantics.hpp"

namespace ts::check {

struct CreditModel::Impl {
  ProgramSet ps;
  Config cfg;
  Semantics sem;
  std::vector<uint16_t> state;
  Impl(Model const& m, long long length)
      : ps(compile(m)), cfg(config(length)), sem(m, ps, cfg), state(sem.layout().words, 0) {
    sem.fresh_credits(state.data());
  }
  static Config config(long long length) {
    Config c;
    c.length = length;
    return c;
  }
};

CreditModel::CreditModel(Model const& m, long long runtime_length)
    : impl_(std::make_unique<Impl>(m, runtime_length)) {}
CreditModel::~CreditModel() = default;

bool CreditModel::enabled(int task, int step) const {
  return impl_->sem.credit_op_enabled(impl_->state.data(), task, impl_->ps.steps[task][step]);
}

void CreditModel::apply(int task, int step) { impl_->sem.credit_op(impl_->state, task, impl_->ps.steps[task][step]); }

// The words per pipe (semantics.hpp, Layout): [uncommitted U, flags, (a, b) per consumer
// slot]; turn pipes add [head, free credit per stage, ahead per slot].
std::vector<CreditDebt> CreditModel::debts() const {
  std::vector<CreditDebt> out;
  auto const& lay = impl_->sem.layout();
  uint16_t const* s = impl_->state.data();
  for (size_t p = 0; p < impl_->ps.pipes.size(); ++p) {
    auto const& pipe = impl_->ps.pipes[p];
    int o = lay.pipe_off[p], slots = lay.pipe_slots[p];
    long long uncommitted = s[o];
    auto a = [&](int c) { return static_cast<long long>(s[o + 2 + 2 * c]); };
    auto b = [&](int c) { return static_cast<long long>(s[o + 3 + 2 * c]); };
    if (int to = lay.turn_off[p]; to >= 0) {
      // Each stage is freed by one release: a stage not free holds an uncommitted
      // acquire or a commit no turn-taker released.
      long long taken = 0;
      for (int k = 0; k < pipe.stages; ++k) taken += std::max(0, 1 - int(s[to + 1 + k]));
      if (taken > uncommitted) out.push_back({CreditDebt::Unconsumed, pipe.resource, -1, taken - uncommitted});
      if (uncommitted > 0) out.push_back({CreditDebt::Unreleased, pipe.resource, -1, uncommitted});
      continue;
    }
    long long held = uncommitted;
    if (pipe.lanes) {
      for (int c = 0; c < slots; ++c) held += a(c) + b(c);  // each lane holds its own stages
    } else {
      held += impl_->sem.stages_in_use(s, static_cast<int>(p));
    }
    for (int c = 0; c < slots; ++c) {
      bool waits = pipe.roles[c] == SlotRole::WaitRelease || pipe.roles[c] == SlotRole::WaitOnly;
      if (waits && a(c) > 0) out.push_back({CreditDebt::Unconsumed, pipe.resource, pipe.consumers[c], a(c)});
    }
    if (held > 0) out.push_back({CreditDebt::Unreleased, pipe.resource, -1, held});
  }
  return out;
}

}  // namespace ts::check
