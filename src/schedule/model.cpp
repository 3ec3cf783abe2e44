#include "ts/schedule/model.hpp"

#include <sstream>

namespace ts {

int Model::find_resource(std::string const& name) const {
  for (size_t i = 0; i < resources.size(); ++i)
    if (resources[i]->name == name) return static_cast<int>(i);
  return -1;
}

int Model::total_warps() const {
  int w = 0;
  for (auto const& t : tasks) w = std::max(w, t.warp_end());
  return w;
}

std::string Model::step_text(int task, int step) const {
  auto const& s = tasks.at(task).schedule.steps.at(step);
  std::ostringstream os;
  if (s.kind == SyncOp::BreakLoop) return "break_loop()";
  os << (s.resource >= 0 ? resources.at(s.resource)->name : std::string("?")) << ".";
  os << ir::short_name(s) << "()";
  if (s.group >= 0 && s.group < static_cast<int>(groups.size())) os << " [group " << groups[s.group].name << "]";
  return os.str();
}

int Model::group_of(int resource) const {
  for (size_t g = 0; g < groups.size(); ++g)
    for (int m : groups[g].members)
      if (m == resource) return static_cast<int>(g);
  return -1;
}

}  // namespace ts
