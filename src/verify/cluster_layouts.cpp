// S6.13 CTA layout consistency. A kernel launches with one cluster shape, so every
// pipeline that spans more than one CTA must describe that same shape; single-CTA
// layouts ({1,1,1,1}) stay CTA-local and are compatible with any cluster.
#include "passes.hpp"

namespace ts::verify {

namespace {
std::string layout_text(CtaLayoutVMNK const& l) {
  return "{" + std::to_string(l[0]) + "," + std::to_string(l[1]) + "," + std::to_string(l[2]) + "," +
         std::to_string(l[3]) + "}";
}
}  // namespace

void check_cluster_layouts(Model const& m, Diagnostics& out) {
  int first = -1;
  for (size_t ri = 0; ri < m.resources.size(); ++ri) {
    int r = static_cast<int>(ri);
    auto const& res = m.resource(r);
    if (!res.pipelined() || !res.pipeline->clustered()) continue;
    if (first < 0) {
      first = r;
      continue;
    }
    auto const& want = *m.resource(first).pipeline->cta_layout_vmnk;
    auto const& got = *res.pipeline->cta_layout_vmnk;
    if (want == got) continue;
    auto d = at_resource(m, r, "S6.13.cta-layout-mismatch",
                         "clustered pipelines must share one cta_layout_vmnk, but '" + res.name + "' differs from '" +
                             m.resource(first).name + "'");
    d.expected = layout_text(want);
    d.actual = layout_text(got);
    out.push_back(d);
  }
}

}  // namespace ts::verify
